import { workerIdLeaseKey } from '@switchboard/snowflake';
import type { RedisClient } from '@switchboard/redis';

/**
 * Snowflake worker ids for the generators of test fixtures, from 900–1022. The processes a
 * test starts lease theirs in Redis, and useTestEnvironment marks these as leased under the
 * file's prefix (reserveFixtureWorkerIds), so no process of the file takes one. Two generators
 * with one worker id can make the same id in the same millisecond, so every call gets an id of
 * its own: files running at once are in different vitest workers (VITEST_POOL_ID 1, 2 …), and
 * each worker draws from a block of its own.
 */
const FIRST_ID = 900;
const LAST_ID = 1022;
/** Ids a vitest worker cycles through: more generators than any one test file makes. */
const BLOCK = 12;

let drawn = 0;

export function testSnowflakeWorkerId(): number {
  const blocks = Math.floor((LAST_ID - FIRST_ID + 1) / BLOCK);
  const pool = Math.max(1, Number(process.env['VITEST_POOL_ID'] ?? 1) || 1);
  const block = (pool - 1) % blocks;
  return FIRST_ID + block * BLOCK + (drawn++ % BLOCK);
}

/** Marks the fixture ids as leased under `prefix`, for good: the file's keys are removed after it. */
export async function reserveFixtureWorkerIds(redis: RedisClient, prefix: string): Promise<void> {
  // One SET each, not a pipeline: on a Redis Cluster the keys are in different slots.
  const ids = Array.from({ length: LAST_ID - FIRST_ID + 1 }, (_, index) => FIRST_ID + index);
  await Promise.all(ids.map((id) => redis.set(workerIdLeaseKey(prefix, id), 'test-fixtures')));
}
