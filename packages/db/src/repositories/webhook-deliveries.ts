import type { Queryable } from '../pool.ts';

const FOREIGN_KEY_VIOLATION = '23503';

/** Dedupe keys of inbound deliveries (X-GitHub-Delivery), taken before anything is enqueued. */
export interface DeliveryClaim {
  webhookId: string;
  deliveryId: string;
  source: 'plain' | 'codehost' | 'errortracker' | 'chatapp';
  /** The message this delivery will produce. */
  messageId: string;
}

/**
 * Takes the delivery id for this webhook, atomically across replicas: true for the one
 * request that inserted it, false for every duplicate (which must then post nothing).
 * False as well when the webhook was deleted meanwhile (foreign key): nothing may post then.
 */
export async function claimWebhookDelivery(db: Queryable, claim: DeliveryClaim): Promise<boolean> {
  try {
    const { rowCount } = await db.query(
      `INSERT INTO webhook_deliveries (webhook_id, delivery_id, source, message_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (webhook_id, delivery_id) DO NOTHING`,
      [claim.webhookId, claim.deliveryId, claim.source, claim.messageId],
    );
    return rowCount === 1;
  } catch (error) {
    if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) return false;
    throw error;
  }
}

/**
 * Gives a claim back when the delivery could not be enqueued, so the sender's retry is not
 * dropped as a duplicate. Only the claim of that message: a later claim stays.
 */
export async function releaseWebhookDelivery(db: Queryable, claim: DeliveryClaim): Promise<void> {
  await db.query('DELETE FROM webhook_deliveries WHERE webhook_id = $1 AND delivery_id = $2 AND message_id = $3', [
    claim.webhookId,
    claim.deliveryId,
    claim.messageId,
  ]);
}

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
