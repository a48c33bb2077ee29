import { lookUpForExecution, type ExecutionLookup, type ExecutionLookupResult, type Pool } from '@switchboard/db';
import { createBatcher } from './batcher.ts';

/** Lookups in one statement at most; a batch stays one short statement. */
const MAX_BATCH = 100;

/**
 * The execution routes' webhook lookup (and dedupe claim), batched across concurrent requests:
 * one statement, one round trip and one commit per batch rather than per request. Not cached:
 * every request reads the row, so a deleted or changed webhook is seen by every replica on the
 * very next request. At most half the pool runs lookups, so other routes always find a connection.
 */
export function batchedLookup(pool: Pool, poolSize: number): (lookup: ExecutionLookup) => Promise<ExecutionLookupResult> {
  return createBatcher((lookups: ExecutionLookup[]) => lookUpForExecution(pool, lookups), {
    maxBatch: MAX_BATCH,
    maxInFlight: Math.max(1, Math.floor(poolSize / 2)),
  });
}
