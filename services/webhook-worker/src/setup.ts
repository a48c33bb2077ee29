import { QUEUES, WEBHOOK_DELIVERY_JOB, WEBHOOK_MESSAGE_DELETE_JOB, WEBHOOK_MESSAGE_EDIT_JOB } from '@switchboard/contracts';
import type { WorkerContext, WorkerSetup } from '@switchboard/runtime';
import type { WebhookWorkerConfig } from './config.ts';
import { deliveryHandler } from './deliver.ts';
import { deleteHandler, editHandler } from './message-changes.ts';
import { deliveryMetrics } from './metrics.ts';

/** The queue this worker consumes and every job on it. */
export const WEBHOOK_WORKER_QUEUE = QUEUES.webhookDeliveries;
export const WEBHOOK_WORKER_JOBS = [WEBHOOK_DELIVERY_JOB, WEBHOOK_MESSAGE_EDIT_JOB, WEBHOOK_MESSAGE_DELETE_JOB] as const;

/**
 * The handlers, on the process's pool, Redis client and S3 (runtime): deliveries, and edits and
 * deletes through the webhook token.
 */
export function createWebhookWorkerSetup({
  config,
  resources: { pool, redis, storage },
  metrics,
}: WorkerContext<WebhookWorkerConfig>): WorkerSetup<typeof WEBHOOK_WORKER_JOBS> {
  const events = {
    streamKey: config.EVENTS_STREAM_KEY,
    redisPrefix: config.REDIS_PREFIX,
    maxLength: config.EVENTS_STREAM_MAX_LENGTH,
    markerTtlSeconds: config.EVENTS_PUBLISHED_TTL_SECONDS,
  };
  const handler = deliveryHandler({
    pool,
    redis,
    storage,
    events,
    testDelay: { ms: config.WEBHOOK_TEST_DELAY_MS, at: config.WEBHOOK_TEST_DELAY_AT },
    metrics: deliveryMetrics(metrics),
  });
  return {
    handlers: {
      [WEBHOOK_DELIVERY_JOB.name]: handler,
      [WEBHOOK_MESSAGE_EDIT_JOB.name]: editHandler({ pool, redis, events }),
      [WEBHOOK_MESSAGE_DELETE_JOB.name]: deleteHandler({ pool, redis, events }),
    },
  };
}
