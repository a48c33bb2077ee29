import { recordArchiveProgress, type Pool } from '@switchboard/db';

/**
 * Writes an archive's progress at most once per `intervalMs` (decisions §6: at most every
 * second), always the latest value; `flush` writes a pending one now.
 */
export function progressWriter(pool: Pool, archiveId: string, intervalMs: number) {
  let lastWrite = 0;
  let pending: { percent: number; step: string } | undefined;
  const write = async () => {
    if (!pending) return;
    const { percent, step } = pending;
    pending = undefined;
    lastWrite = Date.now();
    await recordArchiveProgress(pool, archiveId, percent, step);
  };
  return {
    async report(percent: number, step: string): Promise<void> {
      pending = { percent, step };
      if (Date.now() - lastWrite >= intervalMs) await write();
    },
    flush: write,
  };
}

export type ProgressWriter = ReturnType<typeof progressWriter>;
