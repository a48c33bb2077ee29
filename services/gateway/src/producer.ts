import type { Logger } from '@switchboard/logger';
import { createProducer, type Producer } from '@switchboard/queue';
import { closeRedis, createRedis, redisTarget, type RedisClient } from '@switchboard/redis';
import type { GatewayConfig } from './config.ts';

export interface GatewayProducer {
  producer: Producer;
  /** Closes the producer, then its own connection when it has one. */
  close(): Promise<void>;
}

/**
 * The gateway's producer. On the shared client, unless enqueues wait for replicas
 * (REDIS_WAIT_REPLICAS): then on a connection of its own, since `WAIT` counts the writes of the
 * connection it runs on and holds that connection while it waits, and rate limits and ban checks
 * must not queue behind it.
 */
export function openGatewayProducer(config: GatewayConfig, redis: RedisClient, logger: Logger): GatewayProducer {
  if (config.REDIS_WAIT_REPLICAS === 0) {
    const producer = createProducer({ connection: redis, redisPrefix: config.REDIS_PREFIX, logger });
    return { producer, close: () => producer.close() };
  }
  const connection = createRedis(redisTarget(config), {
    role: 'producer',
    name: 'gateway-producer',
    logger,
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
  });
  const producer = createProducer({
    connection,
    redisPrefix: config.REDIS_PREFIX,
    logger,
    replicas: { count: config.REDIS_WAIT_REPLICAS, timeoutMs: config.REDIS_WAIT_TIMEOUT_MS },
  });
  return {
    producer,
    close: async () => {
      await producer.close();
      await closeRedis(connection);
    },
  };
}
