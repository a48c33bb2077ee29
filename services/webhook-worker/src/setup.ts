import {
  QUEUES,
  WEBHOOK_BODY_SWEEP_JOB,
  WEBHOOK_DELIVERY_JOB,
  WEBHOOK_MESSAGE_DELETE_JOB,
  WEBHOOK_MESSAGE_EDIT_JOB,
} from '@switchboard/contracts';
import { bullQueue } from '@switchboard/queue';
import { sameSlotTag } from '@switchboard/redis';
import type { WorkerContext, WorkerSetup } from '@switchboard/runtime';
import { webhookWorkerConfigSchema, type WebhookWorkerConfig } from './config.ts';
import { deliveryHandler } from './deliver.ts';
import { deleteHandler, editHandler } from './message-changes.ts';
import { deliveryMetrics } from './metrics.ts';
import { bodySweepHandler } from './sweep.ts';

/** The queue this worker consumes and every job on it. */
export const WEBHOOK_WORKER_QUEUE = QUEUES.webhookDeliveries;
export const WEBHOOK_WORKER_JOBS = [
  WEBHOOK_DELIVERY_JOB,
  WEBHOOK_MESSAGE_EDIT_JOB,
  WEBHOOK_MESSAGE_DELETE_JOB,
  WEBHOOK_BODY_SWEEP_JOB,
] as const;

/**
 * The handlers, on the process's pool, Redis client and S3 (runtime): deliveries, edits and
 * deletes through the webhook token, and the sweep of bodies no delivery will read.
 */
export function createWebhookWorkerSetup({
  config,
  logger,
  resources: { pool, redis, storage },
  metrics,
}: WorkerContext<WebhookWorkerConfig>): WorkerSetup<typeof WEBHOOK_WORKER_JOBS> {
  // On a Redis Cluster the markers take the stream's slot (publishedMarkerKey): a stream name
  // no tag can share a slot with stops the worker here rather than failing every delivery.
  if (redis.isCluster) sameSlotTag(config.EVENTS_STREAM_KEY);
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
  // Reads job states only; the connection stays the process's.
  const deliveries = bullQueue(WEBHOOK_WORKER_QUEUE, redis, config.REDIS_PREFIX);
  const sweep = bodySweepHandler({
    storage,
    jobState: (jobId) => deliveries.getJobState(jobId),
    orphanAgeMs: config.WEBHOOK_BODY_ORPHAN_AGE_MS,
    logger,
  });
  return {
    handlers: {
      [WEBHOOK_DELIVERY_JOB.name]: handler,
      [WEBHOOK_MESSAGE_EDIT_JOB.name]: editHandler({ pool, redis, events }),
      [WEBHOOK_MESSAGE_DELETE_JOB.name]: deleteHandler({ pool, redis, events }),
      [WEBHOOK_BODY_SWEEP_JOB.name]: () => sweep(),
    },
    schedules: [
      {
        id: 'webhook-body-sweep',
        contract: WEBHOOK_BODY_SWEEP_JOB,
        payload: {},
        everyMs: config.WEBHOOK_BODY_SWEEP_INTERVAL_MS,
      },
    ],
    close: () => deliveries.close(),
  };
}

/** What main.ts runs: the jobs of this worker's queue, what handles them, and its config. */
export const webhookWorker = {
  contracts: WEBHOOK_WORKER_JOBS,
  handlers: createWebhookWorkerSetup,
  config: webhookWorkerConfigSchema,
};
