import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, QUEUES } from '@switchboard/contracts';
import { useOwnedStore } from '@switchboard/testkit/owned-store/use';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { closeRedis, createRedis, redisReadyWithin } from '@switchboard/redis';
import {
  createProducer,
  InvalidJobPayloadError,
  QueueUnavailableError,
  startWorker,
  type RunningWorker,
} from '../src/index.ts';
import { deferred, isolatedQueue, silentLogger, testJob, testPrefix, useFileRedis } from './helpers.ts';

const environment = useTestEnvironment();

const echo = testJob(QUEUES.bulkOperations, 'test-echo', { attempts: 1 });

const redis = useFileRedis(environment, 'producer-test');

describe('enqueue', () => {
  it('parses the payload before adding anything', async () => {
    const { producer, queue, close } = isolatedQueue(redis(), environment.redisPrefix, QUEUES.bulkOperations);
    try {
      const bad = { id: 'a', value: 'seven' } as unknown as { id: string; value: number };
      const error = await producer.enqueue(echo, bad).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidJobPayloadError);
      expect((error as InvalidJobPayloadError).problems).toEqual([expect.objectContaining({ path: 'value' })]);
      expect(await queue.count()).toBe(0);
    } finally {
      await close();
    }
  });

  it('derives the job id from the payload, so the same work is added once', async () => {
    const { producer, queue, close } = isolatedQueue(redis(), environment.redisPrefix, QUEUES.bulkOperations);
    try {
      const first = await producer.enqueue(echo, { id: '1234567890', value: 1 });
      const second = await producer.enqueue(echo, { id: '1234567890', value: 2 });
      const other = await producer.enqueue(echo, { id: '42', value: 3 });
      expect(first.jobId).toBe('test-echo-1234567890');
      expect(second.jobId).toBe(first.jobId);
      expect(other.jobId).toBe('test-echo-42');
      expect(await queue.count()).toBe(2);
      const stored = await queue.getJob(first.jobId);
      expect(stored?.data).toEqual({ id: '1234567890', value: 1 });
      expect(stored?.opts).toMatchObject({ attempts: 1, removeOnComplete: { age: 86_400, count: 1000 } });
    } finally {
      await close();
    }
  });

  it('adds nothing for a deduplication id an unfinished job holds, and says whose it is', async () => {
    const keyed = defineJob({
      queue: QUEUES.bulkOperations,
      name: 'test-keyed',
      payload: z.object({ id: z.string(), key: z.string().optional() }),
      jobId: (payload) => payload.id,
      deduplicationId: (payload) => payload.key,
    });
    const { producer, queue, close } = isolatedQueue(redis(), environment.redisPrefix, QUEUES.bulkOperations);
    try {
      const first = await producer.enqueue(keyed, { id: '1', key: 'delivery-a' });
      const again = await producer.enqueue(keyed, { id: '2', key: 'delivery-a' });
      const other = await producer.enqueue(keyed, { id: '3', key: 'delivery-b' });
      const unkeyed = await producer.enqueue(keyed, { id: '4' });
      expect(first).toEqual({ jobId: 'test-keyed-1', deduplicated: false });
      expect(again).toEqual({ jobId: 'test-keyed-1', deduplicated: true });
      expect(other).toEqual({ jobId: 'test-keyed-3', deduplicated: false });
      expect(unkeyed).toEqual({ jobId: 'test-keyed-4', deduplicated: false });
      expect(await queue.count()).toBe(3);
      // Once the holder is gone, the key takes a new job.
      await queue.remove(first.jobId);
      expect(await producer.enqueue(keyed, { id: '5', key: 'delivery-a' })).toEqual({
        jobId: 'test-keyed-5',
        deduplicated: false,
      });
    } finally {
      await close();
    }
  });

  it('fails fast when Redis is unreachable', async () => {
    // Nothing listens on port 9: connections are refused, as when Redis is down.
    const dead = createRedis('redis://127.0.0.1:9', { role: 'producer', name: 'dead' });
    const producer = createProducer({ connection: dead, redisPrefix: testPrefix(environment.redisPrefix) });
    try {
      const started = Date.now();
      await expect(producer.enqueue(echo, { id: 'a', value: 1 })).rejects.toBeInstanceOf(QueueUnavailableError);
      await expect(producer.enqueueAndWait(echo, { id: 'a', value: 1 }, { timeoutMs: 5000 })).rejects.toBeInstanceOf(
        QueueUnavailableError,
      );
      // Well under enqueueAndWait's own 5 s bound: refused at once, not waited out.
      expect(Date.now() - started).toBeLessThan(2_500);
    } finally {
      await producer.close();
      await closeRedis(dead);
    }
  });
});

describe('a frozen Redis', () => {
  const owned = useOwnedStore('redis');

  // A Redis process stopped (SIGSTOP) still accepts connections and answers nothing. A queue
  // first used then used to stay broken after the thaw: BullMQ keeps its failed start for good.
  it('enqueues again within 5 s of its thaw when its first enqueue met the freeze', async () => {
    const connection = createRedis(owned().address, { role: 'producer', name: 'frozen', commandTimeoutMs: 500 });
    const producer = createProducer({ connection, redisPrefix: testPrefix(environment.redisPrefix) });
    try {
      await redisReadyWithin(connection, 10_000);
      await owned().freeze();
      const during = await producer.enqueue(echo, { id: 'during', value: 1 }).catch((error: unknown) => error);
      expect(during).toBeInstanceOf(QueueUnavailableError);
      await owned().thaw();
      const thawedAt = Date.now();
      const added = await waitFor(
        () => producer.enqueue(echo, { id: 'after', value: 2 }).catch(() => undefined),
        15_000,
        100,
      );
      expect(added.jobId).toContain('after');
      expect(Date.now() - thawedAt).toBeLessThan(5_000);
    } finally {
      await owned().thaw();
      await producer.close();
      await closeRedis(connection);
    }
  }, 60_000);
});

describe('enqueueAndWait', () => {
  const gate = deferred();
  let redisPrefix: string;
  let worker: RunningWorker;
  const producer = () => createProducer({ connection: redis(), redisPrefix });

  beforeAll(async () => {
    redisPrefix = testPrefix(environment.redisPrefix);
    worker = await startWorker({
      queue: QUEUES.bulkOperations,
      contracts: [echo],
      handlers: {
        'test-echo': async ({ value }) => {
          if (value < 0) throw new Error('negative values are refused');
          if (value === 0) await gate.promise;
          return { doubled: value * 2 };
        },
      },
      connection: environment.redisUrl,
      redisPrefix,
      concurrency: 4,
      logger: silentLogger,
    });
  });
  afterAll(async () => {
    gate.resolve();
    await worker.close(2000);
  });

  it('answers with the result of a job that completes within the bound', async () => {
    const client = producer();
    try {
      const outcome = await client.enqueueAndWait(echo, { id: 'done', value: 21 }, { timeoutMs: 5000 });
      expect(outcome).toEqual({ state: 'completed', jobId: 'test-echo-done', result: { doubled: 42 } });
      // A second wait for the same (deduplicated, finished) job answers at once from its state.
      const again = await client.enqueueAndWait(echo, { id: 'done', value: 21 }, { timeoutMs: 5000 });
      expect(again).toEqual(outcome);
    } finally {
      await client.close();
    }
  });

  it('answers with the reason of a job that fails within the bound', async () => {
    const client = producer();
    try {
      const outcome = await client.enqueueAndWait(echo, { id: 'refused', value: -1 }, { timeoutMs: 5000 });
      expect(outcome).toEqual({ state: 'failed', jobId: 'test-echo-refused', error: 'negative values are refused' });
    } finally {
      await client.close();
    }
  });

  it('answers pending when the job outlives the bound', async () => {
    const client = producer();
    try {
      const started = Date.now();
      const outcome = await client.enqueueAndWait(echo, { id: 'slow', value: 0 }, { timeoutMs: 300 });
      expect(outcome).toEqual({ state: 'pending', jobId: 'test-echo-slow' });
      // No worker runs, so the job never ends: the answer comes from the 300 ms bound.
      expect(Date.now() - started).toBeLessThan(300 + 2_000);
    } finally {
      await client.close();
    }
  });

  it('rejects a bad payload without waiting', async () => {
    const client = producer();
    try {
      const bad = { id: 'x' } as unknown as { id: string; value: number };
      await expect(client.enqueueAndWait(echo, bad, { timeoutMs: 5000 })).rejects.toBeInstanceOf(
        InvalidJobPayloadError,
      );
    } finally {
      await client.close();
    }
  });
});
