import type { CommonConfig, S3Config } from '@switchboard/config';
import { createPool, poolModeOptions, type Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import { settlesWithin } from '@switchboard/queue';
import { closeRedis, createRedis, redisTarget, type RedisClient } from '@switchboard/redis';
import { createStorage, storageOptionsFromConfig, type Storage } from '@switchboard/storage';

/** What a process talks to: the database pool, a request-path Redis client and S3. */
export interface Resources {
  pool: Pool;
  /** A fail-fast `client` (createRedis role `client`): commands never wait for a dead Redis. */
  redis: RedisClient;
  storage: Storage;
  /** Closes all three; each gets `timeoutMs`, so a dead dependency cannot hold the exit. */
  close(timeoutMs?: number): Promise<void>;
}

export const RESOURCE_CLOSE_TIMEOUT_MS = 2_000;

/** Opens the pool, Redis and S3 clients of process `name` (its application and client name). */
export function openResources(name: string, config: CommonConfig & S3Config, logger: Logger): Resources {
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_SIZE,
    applicationName: `switchboard-${name}`,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
    circuitOpenMs: config.DEPENDENCY_CIRCUIT_OPEN_MS,
    ...poolModeOptions(config),
  });
  const redis = createRedis(redisTarget(config), {
    role: 'client',
    name,
    logger,
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
  });
  const storage = createStorage(storageOptionsFromConfig(config));
  let closing: Promise<void> | undefined;
  return {
    pool,
    redis,
    storage,
    close(timeoutMs = RESOURCE_CLOSE_TIMEOUT_MS) {
      closing ??= (async () => {
        // pool.end() waits for every client, including one stuck connecting to a dead server.
        const closed = await settlesWithin(Promise.allSettled([pool.end(), closeRedis(redis)]), timeoutMs);
        if (!closed) logger.warn({ timeoutMs }, 'database or redis did not close in time, leaving them');
        storage.close();
      })();
      return closing;
    },
  };
}
