import type { CommonConfig } from '@switchboard/config';
import type { Logger } from '@switchboard/logger';
import { acquireSnowflakeLease, type SnowflakeLease } from '@switchboard/snowflake';
import type { RedisClient } from '@switchboard/redis';

/**
 * The process's snowflake worker-id lease (SNOWFLAKE_WORKER_ID preferred, SNOWFLAKE_LEASE_TTL_MS),
 * on its fail-fast Redis client. Taken before the process takes work or listens; rejects when
 * Redis does not answer or every id is leased. Release it at shutdown, bounded, before `redis` closes.
 */
export function leaseSnowflakeWorkerId(
  config: CommonConfig,
  redis: RedisClient,
  logger: Logger,
): Promise<SnowflakeLease> {
  return acquireSnowflakeLease({
    redis,
    prefix: config.REDIS_PREFIX,
    preferredWorkerId: config.SNOWFLAKE_WORKER_ID,
    ttlMs: config.SNOWFLAKE_LEASE_TTL_MS,
    logger,
  });
}
