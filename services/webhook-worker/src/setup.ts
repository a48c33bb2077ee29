import { QUEUES, WEBHOOK_DELIVERY_JOB } from '@switchboard/contracts';
import type { WorkerContext, WorkerSetup } from '@switchboard/runtime';
import type { WebhookWorkerConfig } from './config.ts';
import { deliveryHandler } from './deliver.ts';
import { startDeliveryPruner } from './prune.ts';

/** The queue this worker consumes and every job on it. */
export const WEBHOOK_WORKER_QUEUE = QUEUES.webhookDeliveries;
export const WEBHOOK_WORKER_JOBS = [WEBHOOK_DELIVERY_JOB] as const;

/**
 * The handlers, on the process's pool, Redis client and S3 (runtime), and the dedupe-key
 * pruner. `close` stops the pruner once the worker has stopped; the runtime closes the rest.
 */
export function createWebhookWorkerSetup({
  config,
  logger,
  resources: { pool, redis, storage },
}: WorkerContext<WebhookWorkerConfig>): WorkerSetup<typeof WEBHOOK_WORKER_JOBS> {
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
    close: () => pruner.stop(),
  };
}
