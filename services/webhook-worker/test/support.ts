import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { webhookDeliveryPayloadSchema, type WebhookDeliveryPayload } from '@switchboard/contracts';
import { createPool, type Pool } from '@switchboard/db';
import { createLogger, type Logger } from '@switchboard/logger';
import type { JobContext, JobHandler } from '@switchboard/queue';
import { closeRedis, createRedis } from '@switchboard/redis';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import type { Storage } from '@switchboard/storage';
import { storageFor } from '@switchboard/testkit/storage';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import type { TestEnvironment } from '@switchboard/testkit/environment';
import type { WebhookFixture } from '@switchboard/testkit/webhooks';
import { deliveryHandler, type EventStreamOptions } from '../src/index.ts';

export const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
export const silentLogger: Logger = createLogger('webhook-worker-test', 'silent');

/** What a handler gets besides its payload, as the queue would pass it. */
export function jobContext(jobId = 'test-job'): JobContext {
  return {
    jobId,
    jobName: 'webhook-delivery',
    attemptsMade: 0,
    signal: new AbortController().signal,
    logger: silentLogger,
  };
}

/** A plain-format delivery of `content` to the webhook, under a new message id unless given. */
export function plainDelivery(
  hook: Pick<WebhookFixture, 'webhookId'>,
  content: string,
  messageId = ids.next(),
): WebhookDeliveryPayload {
  return webhookDeliveryPayloadSchema.parse({
    webhookId: hook.webhookId,
    messageId,
    format: 'plain',
    body: { kind: 'inline', value: { content } },
  });
}

/** A file's stores, as a worker process holds them, and delivery handlers on them. */
export interface DeliveryStores {
  pool: Pool;
  /** A request-path client, as the worker's events stream uses. */
  redis: Redis;
  storage: Storage;
  /** A new deliveryHandler (batching of its own) on the file's events stream, or on `events`. */
  handler(events?: EventStreamOptions): JobHandler<WebhookDeliveryPayload>;
}

/**
 * Call at the top of a test file, after useTestEnvironment(): the stores are opened before the
 * file's first test and closed after its last; the object is filled in before the first test.
 */
export function useDeliveryStores(
  environment: TestEnvironment,
  { poolMax = 2 }: { poolMax?: number } = {},
): DeliveryStores {
  const stores = {} as DeliveryStores;
  beforeAll(() => {
    const pool = createPool({ connectionString: environment.databaseUrl, max: poolMax });
    const redis = createRedis(environment.redisUrl, { role: 'client' });
    const storage = storageFor(environment);
    const fileStream = {
      streamKey: environment.eventsStreamKey,
      redisPrefix: environment.redisPrefix,
      maxLength: 10_000,
      markerTtlSeconds: 60,
    };
    Object.assign(stores, {
      pool,
      redis,
      storage,
      handler: (events: EventStreamOptions = fileStream) => deliveryHandler({ pool, redis, storage, events }),
    });
  });
  afterAll(async () => {
    await stores.pool?.end();
    if (stores.redis) await closeRedis(stores.redis);
    stores.storage?.close();
  });
  return stores;
}
