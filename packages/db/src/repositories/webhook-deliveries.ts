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

/*
 * In key order, as LOOKUP_AND_CLAIM inserts (no deadlock between overlapping batches). The
 * message id tells which request inserted a key: it is fresh per request.
 */
const CLAIM_MANY = `
INSERT INTO webhook_deliveries (webhook_id, delivery_id, source, message_id)
SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[]) AS c(webhook_id, delivery_id, source, message_id)
ORDER BY webhook_id, delivery_id
ON CONFLICT (webhook_id, delivery_id) DO NOTHING
RETURNING message_id AS "messageId"`;

/**
 * Takes the delivery ids of several deliveries (of webhooks known to exist) in ONE statement,
 * atomically across replicas: true for each claim this call inserted, false for a duplicate.
 * Null for every claim when a webhook was deleted meanwhile (foreign key): the statement
 * inserted nothing, so a caller batching unrelated claims runs them again one by one
 * (createBatcher, isRowError) and only the claim of the deleted webhook gets null.
 */
export async function claimWebhookDeliveries(db: Queryable, claims: readonly DeliveryClaim[]): Promise<(boolean | null)[]> {
  try {
    const { rows } = await db.query<{ messageId: string }>({
      name: 'webhook-claim-many',
      text: CLAIM_MANY,
      values: [
        claims.map((claim) => claim.webhookId),
        claims.map((claim) => claim.deliveryId),
        claims.map((claim) => claim.source),
        claims.map((claim) => claim.messageId),
      ],
    });
    const inserted = new Set(rows.map((row) => row.messageId));
    return claims.map((claim) => inserted.has(claim.messageId));
  } catch (error) {
    if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION && claims.length === 1) return [null];
    throw error;
  }
}

/**
 * Takes the delivery id for this webhook, atomically across replicas: true for the one
 * request that inserted it, false for every duplicate (which must then post nothing).
 * False as well when the webhook was deleted meanwhile (foreign key): nothing may post then.
 */
export async function claimWebhookDelivery(db: Queryable, claim: DeliveryClaim): Promise<boolean> {
  const [claimed] = await claimWebhookDeliveries(db, [claim]);
  return claimed === true;
}

/** One execution request's webhook lookup, and its dedupe claim when it can be taken at once. */
export interface ExecutionLookup {
  webhookId: string;
  /** SHA-256 of the token the request presented (`hashCredential`). */
  tokenHash: Buffer;
  /**
   * Taken in the same statement, but only when the token matches and the webhook has no
   * secret: a webhook with a secret must have its signature checked before anything is claimed.
   */
  claim?: Omit<DeliveryClaim, 'webhookId'> | undefined;
}

export interface ExecutionLookupResult {
  /** The webhook as the statement saw it; null when there is none with this id. */
  webhook: { id: string; token: string; secret: string | null } | null;
  /** Whether this request's claim was inserted; undefined when it was not attempted. */
  claimed: boolean | undefined;
}

interface LookupRow {
  id: string | null;
  token: string | null;
  secret: string | null;
  claimAttempted: boolean;
  claimed: boolean;
}

/*
 * The claims are inserted in key order, so two statements claiming overlapping keys (replicas,
 * redeliveries) wait for each other instead of deadlocking. The claim and the lookup read the
 * webhook in the same snapshot; `message_id` tells the one request that inserted a key.
 */
const LOOKUP_AND_CLAIM = `
WITH input AS (
  SELECT * FROM unnest($1::bigint[], $2::bytea[], $3::text[], $4::text[], $5::bigint[]) WITH ORDINALITY
    AS i(webhook_id, token_hash, delivery_id, source, message_id, ord)
), claimable AS (
  SELECT i.* FROM input i JOIN webhooks w ON w.id = i.webhook_id
  WHERE i.delivery_id IS NOT NULL AND w.secret IS NULL AND sha256(convert_to(w.token, 'UTF8')) = i.token_hash
), claimed AS (
  INSERT INTO webhook_deliveries (webhook_id, delivery_id, source, message_id)
  SELECT webhook_id, delivery_id, source, message_id FROM claimable ORDER BY webhook_id, delivery_id
  ON CONFLICT (webhook_id, delivery_id) DO NOTHING
  RETURNING message_id
)
SELECT w.id, w.token, w.secret,
  EXISTS (SELECT 1 FROM claimable c WHERE c.ord = i.ord) AS "claimAttempted",
  EXISTS (SELECT 1 FROM claimed c WHERE c.message_id = i.message_id) AS claimed
FROM input i LEFT JOIN webhooks w ON w.id = i.webhook_id
ORDER BY i.ord`;

function toResult(row: LookupRow | undefined): ExecutionLookupResult {
  if (!row || row.id === null || row.token === null) return { webhook: null, claimed: undefined };
  return { webhook: { id: row.id, token: row.token, secret: row.secret }, claimed: row.claimAttempted ? row.claimed : undefined };
}

/**
 * Looks up the webhooks of several execution requests and takes the claims that can be taken
 * at once, in ONE statement (one round trip and one commit for all of them). The claims are as
 * atomic as `claimWebhookDelivery`'s: of any number of requests with the same key, on any
 * replica, exactly one gets `claimed: true`. Results are in the order of `lookups`.
 *
 * Any error fails the whole call (nothing was claimed: it is one statement); a caller batching
 * unrelated requests runs them again one by one (createBatcher does). For one request, a
 * webhook deleted between its lookup and its claim (foreign key) means no webhook. Named, so each
 * connection parses and plans it once: that was half of its time in PostgreSQL (1.4 → 0.8 ms).
 */
export async function lookUpForExecution(db: Queryable, lookups: readonly ExecutionLookup[]): Promise<ExecutionLookupResult[]> {
  const params = [
    lookups.map((lookup) => lookup.webhookId),
    lookups.map((lookup) => lookup.tokenHash),
    lookups.map((lookup) => lookup.claim?.deliveryId ?? null),
    lookups.map((lookup) => lookup.claim?.source ?? null),
    lookups.map((lookup) => lookup.claim?.messageId ?? null),
  ];
  try {
    const { rows } = await db.query<LookupRow>({ name: 'webhook-lookup-and-claim', text: LOOKUP_AND_CLAIM, values: params });
    return lookups.map((_, index) => toResult(rows[index]));
  } catch (error) {
    if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION && lookups.length === 1) return [{ webhook: null, claimed: undefined }];
    throw error;
  }
}

/**
 * The message of a claim taken more than `staleAfterSeconds` ago that was never stored: either
 * its job is still queued (a long backlog, a retry waiting) or the gateway that took it died
 * before enqueueing. The caller tells the two apart by asking the queue. Null otherwise.
 */
export async function findUnstoredClaim(db: Queryable, webhookId: string, deliveryId: string, staleAfterSeconds: number): Promise<string | null> {
  const { rows } = await db.query<{ messageId: string }>(
    `SELECT d.message_id AS "messageId" FROM webhook_deliveries d
     WHERE d.webhook_id = $1 AND d.delivery_id = $2 AND d.created_at < now() - make_interval(secs => $3)
       AND d.message_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = d.message_id)`,
    [webhookId, deliveryId, staleAfterSeconds],
  );
  return rows[0]?.messageId ?? null;
}

/**
 * Moves an orphaned claim (findUnstoredClaim, and no job) to `claim`'s message; true when this
 * call moved it. Conditional on the old message id, so of two redeliveries racing for the same
 * orphan exactly one wins.
 */
export async function takeOverClaim(db: Queryable, claim: DeliveryClaim, orphanMessageId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE webhook_deliveries SET message_id = $4, source = $5, created_at = now()
     WHERE webhook_id = $1 AND delivery_id = $2 AND message_id = $3`,
    [claim.webhookId, claim.deliveryId, orphanMessageId, claim.messageId, claim.source],
  );
  return rowCount === 1;
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
 * Leaves a claim for the sender's retry to settle, when its job may or may not have been
 * enqueued (the answer was lost): dated `ageSeconds` back, so the retry takes the orphaned-claim
 * path at once and asks the queue whether the job exists (findUnstoredClaim, takeOverClaim)
 * instead of either posting twice or being dropped. Only the claim of that message.
 */
export async function backdateWebhookDelivery(db: Queryable, claim: DeliveryClaim, ageSeconds: number): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET created_at = now() - make_interval(secs => $4)
     WHERE webhook_id = $1 AND delivery_id = $2 AND message_id = $3`,
    [claim.webhookId, claim.deliveryId, claim.messageId, ageSeconds],
  );
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
