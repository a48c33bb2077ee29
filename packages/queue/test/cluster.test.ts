import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, QUEUES } from '@switchboard/contracts';
import { closeRedis, createRedis, whenRedisReady, type ClusterTarget, type RedisClient } from '@switchboard/redis';
import { startRedisCluster, type RunningRedisCluster } from '@switchboard/testkit/redis-cluster';
import { waitFor } from '@switchboard/testkit/wait';
import { bullPrefix, bullQueue, createProducer, startWorker, type Producer } from '../src/index.ts';
import { silentLogger, testJob, testPrefix } from './helpers.ts';

// Producer and worker on a real three-master Redis Cluster: each queue's keys in a slot of its
// own (bullPrefix), so BullMQ's scripts never cross slots (docs/decisions.md#redis-cluster).
let cluster: RunningRedisCluster;
let target: ClusterTarget;
let redis: RedisClient;

beforeAll(async () => {
  cluster = await startRedisCluster();
  target = { nodes: cluster.nodes };
  redis = createRedis(target, { role: 'producer', name: 'queue-cluster-test' });
  await whenRedisReady(redis, 10_000);
}, 60_000);

afterAll(async () => {
  if (redis) await closeRedis(redis);
  await cluster?.stop();
});

const task = testJob(QUEUES.assetPurges, 'test-task', { attempts: 3, backoff: { type: 'fixed', delayMs: 50 } });
const keyed = defineJob({
  queue: QUEUES.bulkOperations,
  name: 'test-keyed',
  payload: z.object({ id: z.string(), key: z.string() }),
  jobId: (payload) => payload.id,
  deduplicationId: (payload) => payload.key,
  defaults: { attempts: 1 },
});

async function withProducer(work: (producer: Producer, redisPrefix: string) => Promise<void>): Promise<void> {
  const redisPrefix = testPrefix('cluster');
  const producer = createProducer({ connection: redis, redisPrefix, logger: silentLogger });
  try {
    await work(producer, redisPrefix);
  } finally {
    await producer.close();
  }
}

it('gives each queue a hash tag of its own on a cluster, and a single server the prefix it always had', async () => {
  expect(bullPrefix('sb', { queue: QUEUES.assetPurges, connection: { isCluster: false } })).toBe('sb:bull');
  const purges = bullPrefix('sb', { queue: QUEUES.assetPurges, connection: redis });
  const bulk = bullPrefix('sb', { queue: QUEUES.bulkOperations, connection: redis });
  expect(purges).toBe(`sb:bull:{${QUEUES.assetPurges}}`);
  // Two queues, two slots (they may still share a master).
  const slotOf = (key: string) => redis.cluster('KEYSLOT', key);
  expect(await slotOf(`${purges}:${QUEUES.assetPurges}:wait`)).not.toBe(
    await slotOf(`${bulk}:${QUEUES.bulkOperations}:wait`),
  );
});

it('enqueues, processes and retries a job through a worker on the cluster', async () => {
  await withProducer(async (producer, redisPrefix) => {
    const attempts: number[] = [];
    const worker = await startWorker({
      queue: QUEUES.assetPurges,
      contracts: [task],
      handlers: {
        'test-task': async (_payload, { attemptsMade }) => {
          attempts.push(attemptsMade);
          if (attempts.length < 3) throw new Error(`transient failure ${attempts.length}`);
          return 'done';
        },
      },
      connection: target,
      redisPrefix,
      timings: { stalledIntervalMs: 500 },
      logger: silentLogger,
    });
    try {
      const outcome = await producer.enqueueAndWait(task, { id: 'flaky', value: 1 }, { timeoutMs: 10_000 });
      expect(outcome).toEqual({ state: 'completed', jobId: 'test-task-flaky', result: 'done' });
      expect(attempts).toEqual([0, 1, 2]);
      // Enqueued again under its derived id: nothing new is added.
      expect(await producer.enqueue(task, { id: 'flaky', value: 1 })).toEqual({
        jobId: 'test-task-flaky',
        deduplicated: false,
      });
      expect(await producer.jobCounts(QUEUES.assetPurges)).toMatchObject({ completed: 1, waiting: 0 });
    } finally {
      await worker.close(1_000);
    }
  });
});

it('adds nothing for a deduplication id an unfinished job holds, and lists and retries failed jobs', async () => {
  await withProducer(async (producer, redisPrefix) => {
    const first = await producer.enqueue(keyed, { id: '1', key: 'delivery-a' });
    const again = await producer.enqueue(keyed, { id: '2', key: 'delivery-a' });
    expect(first).toEqual({ jobId: 'test-keyed-1', deduplicated: false });
    expect(again).toEqual({ jobId: 'test-keyed-1', deduplicated: true });
    const queue = bullQueue(QUEUES.bulkOperations, redis, redisPrefix);
    try {
      expect(await queue.count()).toBe(1);
      // Failed for good by a worker that gives up at once.
      const worker = await startWorker({
        queue: QUEUES.bulkOperations,
        contracts: [keyed],
        handlers: {
          'test-keyed': async () => {
            throw new Error('refused');
          },
        },
        connection: target,
        redisPrefix,
        logger: silentLogger,
      });
      try {
        await waitFor(
          async () => (await producer.failedJobs([QUEUES.bulkOperations, QUEUES.assetPurges], 0, 10)).total === 1,
          10_000,
        );
        const { jobs } = await producer.failedJobs([QUEUES.bulkOperations, QUEUES.assetPurges], 0, 10);
        expect(jobs).toMatchObject([{ queue: QUEUES.bulkOperations, id: 'test-keyed-1', lastError: 'refused' }]);
      } finally {
        await worker.close(1_000);
      }
      expect(await producer.retryFailedJob(QUEUES.bulkOperations, 'test-keyed-1')).toBe('retried');
      expect(await queue.getJobCounts('waiting', 'failed')).toEqual({ waiting: 1, failed: 0 });
    } finally {
      await queue.close();
    }
  });
});
