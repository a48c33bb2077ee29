/**
 * Snowflake worker ids for the generators of test fixtures, from 900–1022: clear of a
 * gateway's (SNOWFLAKE_WORKER_ID 0 unless set), of `npm start`'s processes (1, 2 …) and of
 * the CLI's 1023. Two generators with one worker id can make the same id in the same
 * millisecond, so every call gets an id of its own: files running at once are in different
 * vitest workers (VITEST_POOL_ID 1, 2 …), and each worker draws from a block of its own.
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
