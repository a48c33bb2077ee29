import { digestsEqual, hashCredential } from '@switchboard/auth';
import { createBatcher } from '@switchboard/batching';
import {
  claimWebhookDeliveries,
  isRowError,
  lookUpForExecution,
  type DeliveryClaim,
  type ExecutionLookup,
  type ExecutionLookupResult,
  type Pool,
} from '@switchboard/db';
import type { Registry } from '@switchboard/metrics';
import type { ChangeFeed } from '../../../change-feed.ts';
import { credentialMemory } from '../../../credential-memory.ts';

/** Lookups in one statement at most; a batch stays one short statement. */
const MAX_BATCH = 100;
/**
 * Statements running at once on one machine. Few and large beats many and small: on the bench,
 * two lanes gave ~10% more requests/s than five at equal latency (each statement wakes a
 * database backend and commits once); a second lane keeps a statement waiting on a lock (a
 * redelivery racing another replica) from holding up every other request.
 */
const LANES_PER_MACHINE = 2;

/**
 * A process's lanes: the machine's, shared among the GATEWAY_PROCESSES on it, at least one
 * each. With two processes on two cores, one lane each served 1,629-1,884 requests/s against
 * 1,493-1,673 with two each (three alternating 20 s runs; batches of ~3.7 lookups per statement
 * with two), for 0.62-0.72 against 0.70-0.76 ms of gateway CPU per request. A statement
 * waiting on a lock then holds up its own process's requests only: the others keep their lanes.
 */
export function lanesPerProcess(processes: number): number {
  return Math.max(1, Math.floor(LANES_PER_MACHINE / processes));
}

export type ExecutionLookupFn = (lookup: ExecutionLookup) => Promise<ExecutionLookupResult>;

/**
 * The execution routes' webhook lookup (and dedupe claim), batched across concurrent requests:
 * one statement, one round trip and one commit per batch rather than per request. Other routes
 * keep the rest of the pool.
 */
export function batchedLookup(pool: Pool, poolSize: number, lanes: number): ExecutionLookupFn {
  return createBatcher((lookups: ExecutionLookup[]) => lookUpForExecution(pool, lookups), {
    maxBatch: MAX_BATCH,
    maxInFlight: Math.min(lanes, poolSize),
    isItemError: isRowError,
  });
}

type Webhook = NonNullable<ExecutionLookupResult['webhook']>;

/**
 * Each webhook row's token hash, computed once per row: a row from memory serves every request
 * to its webhook, and a claim from memory checks the token before the handler checks it again.
 * Rows are never changed in place (a changed token is a new row), so the hash stays the row's.
 */
const tokenHashes = new WeakMap<Webhook, Buffer>();

function tokenHashOf(webhook: Webhook): Buffer {
  let hash = tokenHashes.get(webhook);
  if (!hash) {
    hash = hashCredential(webhook.token);
    tokenHashes.set(webhook, hash);
  }
  return hash;
}

/**
 * Whether a lookup found the webhook of the path and the token hashing to `tokenHash` is its
 * own, compared in constant time (decisions §9): unknown id and wrong token are the same 404.
 */
export function isWebhookOfToken(webhook: ExecutionLookupResult['webhook'], tokenHash: Buffer): webhook is Webhook {
  return webhook !== null && digestsEqual(tokenHash, tokenHashOf(webhook));
}

/** Webhooks held at most per process; past it the oldest go (a hot set is what matters). */
const MAX_CACHED_WEBHOOKS = 50_000;

/** A dedupe claim of a webhook known to exist: true taken, false a duplicate, null the webhook is gone. */
export type ClaimFn = (claim: DeliveryClaim) => Promise<boolean | null>;

/** The claims of executions whose webhook came from memory, batched as the lookups are. */
export function batchedClaim(pool: Pool, poolSize: number, lanes: number): ClaimFn {
  return createBatcher((claims: DeliveryClaim[]) => claimWebhookDeliveries(pool, claims), {
    maxBatch: MAX_BATCH,
    maxInFlight: Math.min(lanes, poolSize),
    isItemError: isRowError,
  });
}

/**
 * Executions answer from the webhooks this process read, while the change feed proves them
 * current (credential-memory.ts): a token or secret changed or a webhook deleted empties every
 * process's memory at its commit, and the API's deletions and secret changes answer only once
 * every process applied them (commitCredentialChange). So an execution without a claim to take
 * (plain execute, chat apps, error trackers, a code host's delivery without X-GitHub-Delivery)
 * needs no statement, and one with a claim only its claim's INSERT (`claim`), which costs
 * PostgreSQL ~0.05-0.1 ms less than the lookup's statement at one request a statement (pgbench,
 * machine CPU per transaction, 0.41-0.44 against 0.46-0.52 ms). A webhook not in memory is read
 * with its claim in one statement (`read`), which refreshes the memory.
 */
export function cachedLookup(read: ExecutionLookupFn, claim: ClaimFn, feed: ChangeFeed | null, metrics: Registry): ExecutionLookupFn {
  if (feed === null) return read;
  const memory = credentialMemory<Webhook>(feed, {
    maxEntries: MAX_CACHED_WEBHOOKS,
    registry: metrics,
    metric: 'webhook_execution_lookups_total',
    help: 'Webhook lookups of executions: outcome="hit" answered from memory, "read" from PostgreSQL.',
  });
  return async (lookup) => {
    let fromDatabase: ExecutionLookupResult | undefined;
    const readRow = async () => (fromDatabase = await read(lookup)).webhook;
    const webhook = await memory(lookup.webhookId, readRow);
    if (fromDatabase) return fromDatabase;
    // What the statement would have claimed: a matching token, and no secret to check first.
    if (!lookup.claim || webhook?.secret !== null || !isWebhookOfToken(webhook, lookup.tokenHash)) return { webhook, claimed: undefined };
    const claimed = await claim({ webhookId: lookup.webhookId, ...lookup.claim });
    return claimed === null ? { webhook: null, claimed: undefined } : { webhook, claimed };
  };
}
