import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = pg.Pool | pg.PoolClient;

export interface PoolOptions {
  connectionString: string;
  /** Connections kept at most; size it per process, not per replica count. */
  max?: number;
  applicationName?: string;
}

/**
 * A pg pool. int8 columns (snowflakes, counts) stay decimal strings, as they go on the wire;
 * code that needs arithmetic converts explicitly.
 */
export function createPool({ connectionString, max = 10, applicationName = 'switchboard' }: PoolOptions): Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: applicationName,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

/** Runs `work` in a transaction on one client, rolling back on any error. */
export async function withTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
