import { digestsEqual, hashCredential } from '@switchboard/auth';
import { createBatcher } from '@switchboard/batching';
import { isRowError, lookUpForExecution, type ExecutionLookup, type ExecutionLookupResult, type Pool } from '@switchboard/db';
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

/**
 * Whether a lookup found the webhook of the path and the token hashing to `tokenHash` is its
 * own, compared in constant time (decisions §9): unknown id and wrong token are the same 404.
 */
export function isWebhookOfToken(webhook: ExecutionLookupResult['webhook'], tokenHash: Buffer): webhook is NonNullable<ExecutionLookupResult['webhook']> {
  return webhook !== null && digestsEqual(tokenHash, hashCredential(webhook.token));
}

/** Webhooks held at most per process; past it the oldest go (a hot set is what matters). */
const MAX_CACHED_WEBHOOKS = 50_000;

/**
 * Executions without a claim to take (plain execute, chat apps, error trackers, a code host's
 * delivery without X-GitHub-Delivery) answer from the webhooks this process read, while the
 * change feed proves them current (credential-memory.ts): a token or secret changed or a
 * webhook deleted empties every process's memory at its commit, and the API's deletions and
 * secret changes answer only once every process applied them (commitCredentialChange). So such
 * an execution needs no statement; one with a claim still reads the row in its claim's
 * statement (and refreshes the memory).
 */
export function cachedLookup(read: ExecutionLookupFn, feed: ChangeFeed | null, metrics: Registry): ExecutionLookupFn {
  if (feed === null) return read;
  const memory = credentialMemory<NonNullable<ExecutionLookupResult['webhook']>>(feed, {
    maxEntries: MAX_CACHED_WEBHOOKS,
    registry: metrics,
    metric: 'webhook_execution_lookups_total',
    help: 'Webhook lookups of executions: outcome="hit" answered from memory, "read" from PostgreSQL.',
  });
  return async (lookup) => {
    let fromDatabase: ExecutionLookupResult | undefined;
    const readRow = async () => (fromDatabase = await read(lookup)).webhook;
    const webhook = await memory(lookup.webhookId, readRow, lookup.claim === undefined);
    return fromDatabase ?? { webhook, claimed: undefined };
  };
}
