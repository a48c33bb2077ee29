import { pruneWebhookDeliveries, type Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';

const BATCH_SIZE = 5000;
/** A backlog is cleared over several runs rather than in one long burst. */
const MAX_BATCHES_PER_RUN = 20;

export interface PruneOptions {
  pool: Pool;
  logger: Logger;
  /** Dedupe keys older than this are deleted. */
  retentionHours: number;
}

/**
 * One run of the webhook-delivery-prune job (scheduled every WEBHOOK_DELIVERY_PRUNE_INTERVAL_MS):
 * deletes expired delivery dedupe keys in batches and answers how many went.
 */
export function pruneHandler({ pool, logger, retentionHours }: PruneOptions): () => Promise<{ deleted: number }> {
  return async () => {
    const olderThan = new Date(Date.now() - retentionHours * 60 * 60 * 1000);
    let deleted = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch += 1) {
      const count = await pruneWebhookDeliveries(pool, olderThan, BATCH_SIZE);
      deleted += count;
      if (count < BATCH_SIZE) break;
    }
    if (deleted > 0) logger.info({ deleted }, 'expired webhook delivery keys deleted');
    return { deleted };
  };
}
