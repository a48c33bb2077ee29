import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineJob, JOB_ORIGIN_FIELD, QUEUES } from '@switchboard/contracts';
import { currentRequestId, withRequestId } from '@switchboard/telemetry';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { createRedis } from '@switchboard/redis';
import { startWorker, type JobHandler, type RunningWorker } from '../src/index.ts';
import { deferred, isolatedQueue, jobState, silentLogger, testJob, useFileRedis } from './helpers.ts';

const environment = useTestEnvironment();

const task = testJob(QUEUES.assetPurges, 'test-task', { attempts: 3, backoff: { type: 'exponential', delayMs: 100 } });

const other = defineJob({
  queue: QUEUES.assetPurges,
  name: 'test-other',
  payload: z.object({ id: z.string() }),
});

const redis = useFileRedis(environment, 'worker-test');

/** A worker on a queue of the test's own, with its producer and a raw view of the queue. */
async function setUp(handler: JobHandler<{ id: string; value: number }>, lockDurationMs = 30_000) {
  const { redisPrefix, producer, queue, close } = isolatedQueue(redis(), environment.redisPrefix, QUEUES.assetPurges);
  const start = () =>
    startWorker({
      queue: QUEUES.assetPurges,
      contracts: [task],
      handlers: { 'test-task': handler },
      connection: environment.redisUrl,
      redisPrefix,
      concurrency: 2,
      timings: { lockDurationMs, stalledIntervalMs: 500 },
      logger: silentLogger,
    });
  const worker = await start();
  const tearDown = async () => {
    await worker.close(1000);
    await close();
  };
  return { producer, queue, worker, start, tearDown };
}

describe('worker', () => {
  it('retries a failing handler with exponential backoff until it succeeds', async () => {
    const runs: { at: number; attemptsMade: number }[] = [];
    const { producer, queue, tearDown } = await setUp(async (_payload, { attemptsMade }) => {
      runs.push({ at: Date.now(), attemptsMade });
      if (runs.length < 3) throw new Error(`transient failure ${runs.length}`);
      return 'done';
    });
    try {
      const outcome = await producer.enqueueAndWait(task, { id: 'flaky', value: 1 }, { timeoutMs: 5000 });
      expect(outcome).toEqual({ state: 'completed', jobId: 'test-task-flaky', result: 'done' });
      expect(runs.map((run) => run.attemptsMade)).toEqual([0, 1, 2]);
      const [first, second, third] = runs.map((run) => run.at) as [number, number, number];
      expect(second - first).toBeGreaterThanOrEqual(100);
      expect(third - second).toBeGreaterThanOrEqual(200);
      expect((await queue.getJob('test-task-flaky'))?.attemptsMade).toBe(3);
    } finally {
      await tearDown();
    }
  });

  it('fails a malformed payload once, without retrying it', async () => {
    let calls = 0;
    const { queue, tearDown } = await setUp(async () => {
      calls += 1;
    });
    try {
      // Bypasses the producer, as a job written by an older or buggy producer would.
      await queue.add('test-task', { id: 'bad', value: 'many' }, { jobId: 'test-task-bad', attempts: 3, backoff: 10 });
      await waitFor(async () => (await jobState(queue, 'test-task-bad')) === 'failed');
      const job = await queue.getJob('test-task-bad');
      expect(job?.attemptsMade).toBe(1);
      expect(job?.failedReason).toMatch(/^Malformed payload: value: /);
      expect(job?.stacktrace?.join('\n')).toContain('UnrecoverableError');
      expect(calls).toBe(0);
    } finally {
      await tearDown();
    }
  });

  it('runs a job under the request id it was enqueued under, which the handler’s payload does not show', async () => {
    const seen: { requestId: string | undefined; payload: object }[] = [];
    const { producer, queue, tearDown } = await setUp(async (payload) => {
      seen.push({ requestId: currentRequestId(), payload });
    });
    try {
      await withRequestId('request-7', () =>
        producer.enqueueAndWait(task, { id: 'asked', value: 1 }, { timeoutMs: 5000 }),
      );
      await producer.enqueueAndWait(task, { id: 'unasked', value: 2 }, { timeoutMs: 5000 });
      expect(seen).toEqual([
        { requestId: 'request-7', payload: { id: 'asked', value: 1 } },
        { requestId: undefined, payload: { id: 'unasked', value: 2 } },
      ]);
      expect((await queue.getJob('test-task-asked'))?.data).toMatchObject({
        [JOB_ORIGIN_FIELD]: { requestId: 'request-7' },
      });
      expect((await queue.getJob('test-task-unasked'))?.data).not.toHaveProperty(JOB_ORIGIN_FIELD);
    } finally {
      await tearDown();
    }
  });

  it('refuses to start when a job has no handler or a handler has no job', async () => {
    let connected = false;
    const connection = () => {
      connected = true;
      return createRedis(environment.redisUrl, { role: 'worker' });
    };
    const base = { queue: QUEUES.assetPurges, connection, redisPrefix: environment.redisPrefix, logger: silentLogger };
    const handler = async () => {};
    await expect(
      // The types already reject this; the check also protects plain-JS callers and casts.
      startWorker({ ...base, contracts: [task, other], handlers: { 'test-task': handler } as never }),
    ).rejects.toThrow(/refuses to start: job "test-other" has no handler/);
    await expect(
      startWorker({ ...base, contracts: [task], handlers: { 'test-task': handler, 'test-stray': handler } as never }),
    ).rejects.toThrow(/handler "test-stray" has no job contract/);
    const elsewhere = defineJob({ queue: QUEUES.webhookDeliveries, name: 'test-elsewhere', payload: z.object({}) });
    await expect(
      startWorker({ ...base, contracts: [elsewhere], handlers: { 'test-elsewhere': handler } }),
    ).rejects.toThrow(/belongs to queue "webhook-deliveries"/);
    expect(connected).toBe(false);
  });
});

describe('graceful shutdown', () => {
  it('lets an active job finish before closing', async () => {
    const started = deferred();
    let finished = false;
    const { producer, queue, worker, tearDown } = await setUp(async () => {
      started.resolve();
      await new Promise((resolve) => setTimeout(resolve, 400));
      finished = true;
    });
    try {
      await producer.enqueue(task, { id: 'busy', value: 1 });
      await started.promise;
      await worker.close(5000);
      expect(finished).toBe(true);
      expect(await jobState(queue, 'test-task-busy')).toBe('completed');
    } finally {
      await tearDown();
    }
  });

  it('returns within the timeout and releases a job that outlives it', async () => {
    const started = deferred();
    const hang = deferred();
    let aborted = false;
    const { producer, queue, worker, start, tearDown } = await setUp(async (_payload, { signal, attemptsMade }) => {
      if (attemptsMade > 0 || started.settled) return 'second run';
      started.resolve();
      signal.addEventListener('abort', () => {
        aborted = true;
      });
      await hang.promise;
      return 'first run';
    });
    let successor: RunningWorker | undefined;
    try {
      await producer.enqueue(task, { id: 'stuck', value: 1 });
      await started.promise;
      const closing = Date.now();
      await worker.close(500);
      // The job hangs for good: returning at all shows the bound held; the slack is for a busy machine.
      expect(Date.now() - closing).toBeLessThan(500 + 2_000);
      expect(aborted).toBe(true);
      expect(await jobState(queue, 'test-task-stuck')).toBe('waiting');
      // Released, not stalled: the next worker takes it at once.
      successor = await start();
      await waitFor(async () => (await jobState(queue, 'test-task-stuck')) === 'completed', 3000);
      expect((await queue.getJob('test-task-stuck'))?.returnvalue).toBe('second run');
    } finally {
      hang.resolve();
      await successor?.close(1000);
      await tearDown();
    }
  });
});
