import { digestsEqual, hashCredential } from '@switchboard/auth';
import { createBatcher } from '@switchboard/batching';
import {
  findWebhooksForExecution,
  openWebhookSecret,
  type ExecutionWebhook,
  type Pool,
  type SecretKeyring,
} from '@switchboard/db';
import type { Registry } from '@switchboard/metrics';
import type { ChangeFeed } from '../../../change-feed.ts';
import { credentialMemory } from '../../../credential-memory.ts';

/** Lookups in one statement at most; a batch stays one short statement. */
const MAX_BATCH = 100;
/**
 * Statements running at once on one machine. Few and large beats many and small (each
 * statement wakes a database backend and commits once: packages/bench/README.md#webhook-ingest);
 * a second lane keeps a statement waiting on a lock (a redelivery racing another replica) from
 * holding up every other request.
 */
const LANES_PER_MACHINE = 2;

/**
 * A process's lanes: the machine's, shared among the GATEWAY_PROCESSES on it, at least one
 * each: with two processes on two cores, one lane each served more requests for less CPU than
 * two each (packages/bench/README.md#webhook-ingest). A statement waiting on a lock then holds
 * up its own process's requests only: the others keep their lanes.
 */
export function lanesPerProcess(processes: number): number {
  return Math.max(1, Math.floor(LANES_PER_MACHINE / processes));
}

/** The webhook of an execution's path, or null when there is none with that id. */
export type ExecutionLookupFn = (webhookId: string) => Promise<ExecutionWebhook | null>;

/**
 * The execution routes' webhook lookup, batched across concurrent requests: one statement and
 * one round trip per batch rather than per request. Other routes keep the rest of the pool.
 * Secrets are opened here, once per read: a webhook held in memory serves its requests with
 * no decryption.
 */
export function batchedLookup(pool: Pool, poolSize: number, lanes: number, secrets: SecretKeyring): ExecutionLookupFn {
  const read = async (webhookIds: string[]): Promise<(ExecutionWebhook | null)[]> =>
    (await findWebhooksForExecution(pool, webhookIds)).map((row) =>
      row === null
        ? null
        : { id: row.id, token: row.token, secret: row.secret && openWebhookSecret(secrets, row.id, row.secret) },
    );
  return createBatcher(read, {
    maxBatch: MAX_BATCH,
    maxInFlight: Math.min(lanes, poolSize),
  });
}

/**
 * Each webhook row's token hash, computed once per row: a row from memory serves every request
 * to its webhook. Rows are never changed in place (a changed token is a new row), so the hash
 * stays the row's.
 */
const tokenHashes = new WeakMap<ExecutionWebhook, Buffer>();

function tokenHashOf(webhook: ExecutionWebhook): Buffer {
  let hash = tokenHashes.get(webhook);
  if (!hash) {
    hash = hashCredential(webhook.token);
    tokenHashes.set(webhook, hash);
  }
  return hash;
}

/**
 * Whether a lookup found the webhook of the path and the token hashing to `tokenHash` is its
 * own, compared in constant time (docs/decisions.md#webhook-tokens): unknown id and wrong token are the same 404.
 */
export function isWebhookOfToken(webhook: ExecutionWebhook | null, tokenHash: Buffer): webhook is ExecutionWebhook {
  return webhook !== null && digestsEqual(tokenHash, tokenHashOf(webhook));
}

/** Webhooks held at most per process; past it the oldest go (a hot set is what matters). */
const MAX_CACHED_WEBHOOKS = 50_000;

/**
 * Executions answer from the webhooks this process read, while the change feed proves them
 * current (credential-memory.ts): a token or secret changed or a webhook deleted empties every
 * process's memory at its commit, and the API's deletions and secret changes answer only once
 * every process applied them (commitCredentialChange). So an execution of a webhook in memory
 * needs no statement at all: a delivery's dedupe key is the worker's to take, with its message.
 * A webhook not in memory is read (`read`), which refreshes the memory.
 */
export function cachedLookup(read: ExecutionLookupFn, feed: ChangeFeed | null, metrics: Registry): ExecutionLookupFn {
  if (feed === null) return read;
  const memory = credentialMemory<ExecutionWebhook>(feed, {
    maxEntries: MAX_CACHED_WEBHOOKS,
    registry: metrics,
    metric: 'webhook_execution_lookups_total',
    help: 'Webhook lookups of executions: outcome="hit" answered from memory, "read" from PostgreSQL.',
  });
  return (webhookId) => memory(webhookId, () => read(webhookId));
}
