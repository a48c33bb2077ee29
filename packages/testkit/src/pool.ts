import { afterAll, beforeAll } from 'vitest';
import { createPool, type Pool } from '@switchboard/db';
import type { TestEnvironment } from './environment.ts';

/**
 * Call at the top of a test file, after useTestEnvironment(): a small pool on the file's
 * database, opened before its first test and ended after its last (before the database goes).
 */
export function useTestPool(environment: TestEnvironment, max = 2): () => Pool {
  let pool: Pool | undefined;
  beforeAll(() => {
    pool = createPool({ connectionString: environment.databaseUrl, max });
  });
  afterAll(async () => {
    await pool?.end();
  });
  return () => {
    if (!pool) throw new Error('the test pool is opened before the first test');
    return pool;
  };
}
