import { recordArchiveProgress, type Pool } from '@switchboard/db';

/**
 * Writes an archive's progress at most once per `intervalMs` (docs/decisions.md#archive-exports: at most every
 * second); a report that comes sooner is dropped (a later one carries the news).
 */
export function progressWriter(pool: Pool, archiveId: string, intervalMs: number) {
  let lastWrite = 0;
  return {
    async report(percent: number, step: string): Promise<void> {
      if (Date.now() - lastWrite < intervalMs) return;
      lastWrite = Date.now();
      await recordArchiveProgress(pool, archiveId, percent, step);
    },
  };
}

export type ProgressWriter = ReturnType<typeof progressWriter>;

/**
 * The progress of a message phase: `from` percent plus `span` percent times the share of
 * `total` messages written so far, with the step text `step(written)`. Feed it each page's rows.
 * `total` may still be being counted: the first report waits for it.
 */
export function messagePhase(
  progress: ProgressWriter,
  phase: { total: number | Promise<number>; from: number; span: number; step: (written: number) => string },
) {
  let written = 0;
  return async (rows: number): Promise<void> => {
    written += rows;
    const total = await phase.total;
    const share = total === 0 ? 1 : written / total;
    return progress.report(phase.from + Math.floor(share * phase.span), phase.step(written));
  };
}
