import { createLogger } from '@switchboard/logger';
import { closeRedis, createRedis, redisTarget } from '@switchboard/redis';
import { acquireSnowflakeLease, type SnowflakeGenerator } from '@switchboard/snowflake';
import type { CliConfig } from './config.ts';
import { CliError, EXIT } from './output.ts';

// Stdout carries the command's JSON result and stderr its one error line: no log lines.
const SILENT = createLogger('cli', 'silent');

/**
 * Runs `work` with ids under a snowflake worker id leased for the command's duration (as the
 * gateway and workers lease theirs), so the CLI never makes an id a process beside it makes
 * too. The lease is released when the work ends, also when it fails.
 */
export async function withLeasedIds<T>(config: CliConfig, work: (ids: SnowflakeGenerator) => Promise<T>): Promise<T> {
  if (!config.REDIS_URL) {
    throw new CliError('INVALID_CONFIG', 'Invalid configuration.', {
      exitCode: EXIT.config,
      details: ['REDIS_URL: required by commands that make ids (they lease a snowflake worker id)'],
    });
  }
  const redis = createRedis(redisTarget({ ...config, REDIS_URL: config.REDIS_URL }), { role: 'client', name: 'cli' });
  try {
    const lease = await acquireSnowflakeLease({
      redis,
      prefix: config.REDIS_PREFIX,
      preferredWorkerId: config.SNOWFLAKE_WORKER_ID,
      ttlMs: config.SNOWFLAKE_LEASE_TTL_MS,
      logger: SILENT,
    }).catch((error: Error) => {
      throw new CliError('SNOWFLAKE_LEASE_FAILED', `No snowflake worker id leased: ${error.message}`);
    });
    try {
      return await work(lease.ids);
    } finally {
      await lease.release();
    }
  } finally {
    await closeRedis(redis);
  }
}
