import { expireArchives, withTransaction, type Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import type { Storage } from '@switchboard/storage';

/** Archives expired per transaction; a backlog is cleared over several ticks. */
const BATCH = 500;
const MAX_BATCHES_PER_RUN = 20;

/**
 * The archive-retention job (a job scheduler: one run per tick across replicas). Per batch, in
 * one transaction: claim archives past `expires_at` as `expired` (SKIP LOCKED, so two runs never
 * take the same one), delete their objects, commit. If the store refuses, the transaction rolls
 * back and the next tick tries again; a download already answers HARVEST_EXPIRED by the date.
 */
export function retentionHandler({
  pool,
  storage,
  logger,
}: {
  pool: Pool;
  storage: Storage;
  logger: Logger;
}): () => Promise<{ expired: number }> {
  return async () => {
    let expired = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch += 1) {
      const count = await withTransaction(pool, async (client) => {
        const rows = await expireArchives(client, BATCH);
        const keys = rows.flatMap((row) => (row.storageKey ? [row.storageKey] : []));
        const result = await storage.deleteObjects(keys);
        if (result.errors.length > 0)
          throw new Error(`the store refused ${result.errors.length} of ${keys.length} archive deletions`);
        return rows.length;
      });
      expired += count;
      if (count < BATCH) break;
    }
    if (expired > 0) logger.info({ expired }, 'expired archives removed');
    return { expired };
  };
}
