import type { Queryable } from '../pool.ts';

/**
 * Deletes dedupe keys older than `olderThan`, at most `batchSize` per call (short transactions;
 * call again while it returns `batchSize`).
 */
export async function pruneWebhookDeliveries(db: Queryable, olderThan: Date, batchSize = 5000): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM webhook_deliveries WHERE ctid IN (
       SELECT ctid FROM webhook_deliveries WHERE created_at < $1 ORDER BY created_at LIMIT $2
     )`,
    [olderThan, batchSize],
  );
  return rowCount ?? 0;
}
