import type { Pool } from 'pg';
import type { CliConfig } from './config.ts';

/**
 * Runs `work` on a one-connection pool to DATABASE_URL (named `applicationName` in
 * pg_stat_activity), ended when the work ends, also when it fails. The db package is loaded
 * here, not at start: every other command (and --help) starts without it.
 */
export async function withDatabasePool<T>(
  config: CliConfig,
  applicationName: string,
  work: (pool: Pool) => Promise<T>,
): Promise<T> {
  const { createPool, poolModeOptions } = await import('@switchboard/db');
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: 1,
    applicationName,
    ...poolModeOptions(config),
  });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}
