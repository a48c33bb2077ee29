import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES, WEBHOOK_DELIVERY_JOB, webhookBodyKey } from '@switchboard/contracts';
import { bullQueue, createProducer, type Producer } from '@switchboard/queue';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { bodySweepHandler } from '../src/sweep.ts';
import { ids, silentLogger, useDeliveryStores } from './support.ts';

const environment = useTestEnvironment();
const stores = useDeliveryStores(environment);
let queue: Queue;
// The job is added as the gateway adds it, so its id is the one the sweep must find.
let producer: Producer;

beforeAll(() => {
  queue = bullQueue(QUEUES.webhookDeliveries, stores.redis, environment.redisPrefix);
  producer = createProducer({ connection: stores.redis, redisPrefix: environment.redisPrefix });
});

afterAll(async () => {
  await producer?.close();
  await queue?.close();
});

const sweep = (orphanAgeMs: number) =>
  bodySweepHandler({
    storage: stores.storage,
    jobState: (jobId) => queue.getJobState(jobId),
    orphanAgeMs,
    logger: silentLogger,
  })();

async function placeBody(webhookId: string): Promise<{ key: string; messageId: string }> {
  const messageId = ids.next();
  const key = webhookBodyKey(webhookId, messageId);
  await stores.storage.upload(key, '{"text":"body"}', { contentType: 'application/json' });
  return { key, messageId };
}

describe('the body sweep', () => {
  it('removes old bodies whose job is gone, and keeps a queued job’s body and young bodies', async () => {
    const webhookId = ids.next();
    const orphan = await placeBody(webhookId);
    const queued = await placeBody(webhookId);
    // Delayed past the test: no worker runs here, but the job is the one a worker would run.
    await producer.enqueue(
      WEBHOOK_DELIVERY_JOB,
      {
        webhookId,
        messageId: queued.messageId,
        format: 'chatapp',
        body: { kind: 'stored', key: queued.key, bytes: 15 },
      },
      { delayMs: 60_000 },
    );

    // Younger than the age: nothing is touched, job or none.
    expect(await sweep(60 * 60 * 1000)).toEqual({ removed: 0 });
    expect(await stores.storage.headObject(orphan.key)).not.toBeNull();

    // Every body old enough: the orphan goes, the queued job's body stays for it.
    expect(await sweep(0)).toMatchObject({ removed: expect.any(Number) });
    expect(await stores.storage.headObject(orphan.key)).toBeNull();
    expect(await stores.storage.headObject(queued.key)).not.toBeNull();
  });
});
