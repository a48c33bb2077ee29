import type { Pool } from '@switchboard/db';

export interface HeldLock {
  /** Ends the transaction that holds the lock: what waited on it goes on. */
  release(): Promise<void>;
}

/**
 * Runs `lockSql` (a `SELECT … FOR UPDATE`) in a transaction left open: whatever needs those rows
 * waits until release(). For tests that must see work still running, whatever the machine's
 * speed, instead of racing it.
 */
export async function holdRowLock(pool: Pool, lockSql: string, values: unknown[]): Promise<HeldLock> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(lockSql, values);
  } catch (error) {
    client.release(true);
    throw error;
  }
  return {
    release: async () => {
      await client.query('COMMIT').finally(() => client.release());
    },
  };
}
