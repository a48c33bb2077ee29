import { pruneWebhookDeliveries, type Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';

export interface PrunerOptions {
  pool: Pool;
  logger: Logger;
  /** Dedupe keys older than this are deleted. */
  retentionHours: number;
  intervalMs: number;
}

const BATCH_SIZE = 5000;
/** A backlog is cleared over several rounds rather than in one long burst. */
const MAX_BATCHES_PER_ROUND = 20;

async function pruneOnce({ pool, retentionHours }: PrunerOptions): Promise<number> {
  const olderThan = new Date(Date.now() - retentionHours * 60 * 60 * 1000);
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_ROUND; batch += 1) {
    const deleted = await pruneWebhookDeliveries(pool, olderThan, BATCH_SIZE);
    total += deleted;
    if (deleted < BATCH_SIZE) break;
  }
  return total;
}

/**
 * Deletes expired delivery dedupe keys every `intervalMs` (first round after one interval).
 * Rounds never overlap; `stop` waits for a running one, so the pool can be closed after it.
 */
export function startDeliveryPruner(options: PrunerOptions): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const round = () => {
    running ??= pruneOnce(options)
      .then((deleted) => {
        if (deleted > 0) options.logger.info({ deleted }, 'expired webhook delivery keys deleted');
      })
      .catch((error: Error) => options.logger.warn({ reason: error.message }, 'pruning webhook delivery keys failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(round, options.intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
