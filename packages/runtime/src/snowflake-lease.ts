import type { CommonConfig } from '@switchboard/config';
import type { Logger } from '@switchboard/logger';
import { acquireSnowflakeLease, NoFreeWorkerIdError, type SnowflakeLease } from '@switchboard/snowflake';
import { untilRedisAnswers, type RedisClient } from '@switchboard/redis';

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

/**
 * The lease, tried again every second while Redis does not answer: a worker started (or
 * restarted by its supervisor) during a Redis outage or stall starts once Redis is back,
 * rather than exiting and waiting out its supervisor's back-off. Rejects only when every id is
 * leased. It takes no work meanwhile, and a stop signal ends it as any unstarted process.
 */
export function leaseSnowflakeWorkerIdOnceRedisAnswers(
  config: CommonConfig,
  redis: RedisClient,
  logger: Logger,
): Promise<SnowflakeLease> {
  return untilRedisAnswers(() => leaseSnowflakeWorkerId(config, redis, logger), {
    logger,
    what: 'Redis not answering; waiting to start',
    isFinal: (error) => error instanceof NoFreeWorkerIdError,
  });
}
