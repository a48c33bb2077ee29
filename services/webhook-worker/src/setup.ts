import { QUEUES, WEBHOOK_DELIVERY_JOB } from '@switchboard/contracts';
import { createPool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import { type WorkerSetup } from '@switchboard/queue';
import { closeRedis, createRedis } from '@switchboard/redis';
import { createStorage, storageOptionsFromConfig } from '@switchboard/storage';
import type { WebhookWorkerConfig } from './config.ts';
import { deliveryHandler } from './deliver.ts';
import { startDeliveryPruner } from './prune.ts';

/** The queue this worker consumes and every job on it. */
export const WEBHOOK_WORKER_QUEUE = QUEUES.webhookDeliveries;
export const WEBHOOK_WORKER_JOBS = [WEBHOOK_DELIVERY_JOB] as const;

/**
 * The handlers and what they hold (database pool, events client, S3, the dedupe-key pruner),
 * built from the loaded config. `close` releases them once the worker has stopped.
 */
export function createWebhookWorkerSetup({
  config,
  logger,
}: {
  config: WebhookWorkerConfig;
  logger: Logger;
}): WorkerSetup<typeof WEBHOOK_WORKER_JOBS> {
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_SIZE,
    applicationName: 'switchboard-webhook-worker',
  });
  const redis = createRedis(config.REDIS_URL, { role: 'client', name: 'webhook-worker-events', logger });
  const storage = createStorage(storageOptionsFromConfig(config));
  const pruner = startDeliveryPruner({
    pool,
    logger,
    retentionHours: config.WEBHOOK_DELIVERY_DEDUPE_HOURS,
    intervalMs: config.WEBHOOK_DELIVERY_PRUNE_INTERVAL_MS,
  });
  const handler = deliveryHandler({
    pool,
    redis,
    storage,
    events: {
      streamKey: config.EVENTS_STREAM_KEY,
      redisPrefix: config.REDIS_PREFIX,
      maxLength: config.EVENTS_STREAM_MAX_LENGTH,
      markerTtlSeconds: config.EVENTS_PUBLISHED_TTL_SECONDS,
    },
    testDelay: { ms: config.WEBHOOK_TEST_DELAY_MS, at: config.WEBHOOK_TEST_DELAY_AT },
  });
  return {
    handlers: { [WEBHOOK_DELIVERY_JOB.name]: handler },
    close: async () => {
      await pruner.stop();
      await Promise.allSettled([pool.end(), closeRedis(redis)]);
      storage.close();
    },
  };
}
