import { expect, it } from 'vitest';
import { QUEUES } from '@switchboard/contracts';
import { SUBSCRIBER_PING_INTERVAL_MS, WORKER_SOCKET_TIMEOUT_MS } from '@switchboard/redis';
import { startFaultProxy, type FaultProxy } from '@switchboard/testkit/fault-proxy';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { startWorker } from '../src/index.ts';
import { isolatedQueue, jobState, silentLogger, testJob, useFileRedis } from './helpers.ts';

const environment = useTestEnvironment();
const redis = useFileRedis(environment, 'liveness-test');
const task = testJob(QUEUES.bulkOperations, 'test-live', { attempts: 1 });

/**
 * A worker of `task` whose Redis is behind a fault proxy, with a producer and a queue view that
 * reach Redis directly; `work` runs with them, and everything is closed after.
 */
async function withProxiedWorker(
  handler: (payload: { value: number }) => Promise<number>,
  work: (stack: { proxy: FaultProxy } & Pick<ReturnType<typeof isolatedQueue>, 'producer' | 'queue'>) => Promise<void>,
): Promise<void> {
  const target = new URL(environment.redisUrl);
  const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
  const { redisPrefix, producer, queue, close } = isolatedQueue(
    redis(),
    environment.redisPrefix,
    QUEUES.bulkOperations,
  );
  const worker = await startWorker({
    queue: QUEUES.bulkOperations,
    contracts: [task],
    handlers: { 'test-live': handler },
    connection: proxy.urlFor(environment.redisUrl),
    redisPrefix,
    logger: silentLogger,
  });
  try {
    await work({ proxy, producer, queue });
  } finally {
    await worker.close(1_000);
    await close();
    await proxy.close();
  }
}

it('a worker whose connections died without a word takes jobs again on new ones', async () => {
  await withProxiedWorker(
    async ({ value }) => value * 2,
    async ({ proxy, producer, queue }) => {
      await producer.enqueue(task, { id: 'before', value: 1 });
      await waitFor(async () => (await jobState(queue, 'test-live-before')) === 'completed', 10_000);

      // Its fetch is blocked on a connection that will never answer; the job added now is
      // taken only once the worker has noticed and connected again.
      proxy.strandOpenConnections();
      await producer.enqueue(task, { id: 'after', value: 2 });
      await waitFor(
        async () => (await jobState(queue, 'test-live-after')) === 'completed',
        WORKER_SOCKET_TIMEOUT_MS + SUBSCRIBER_PING_INTERVAL_MS + 10_000,
        250,
      );
      expect((await queue.getJob('test-live-after'))?.returnvalue).toBe(4);
    },
  );
}, 60_000);

it('a worker whose Redis went away as a job finished takes jobs within 5 s of its return', async () => {
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  await withProxiedWorker(
    async ({ value }) => {
      if (value === 1) {
        started();
        await finished;
      }
      return value * 2;
    },
    async ({ proxy, producer, queue }) => {
      // The first job's handler ends while Redis is gone (reset, and every reconnection
      // refused, as when it stops): the worker cannot record the completion then.
      await producer.enqueue(task, { id: 'interrupted', value: 1 });
      await running;
      proxy.setMode('cut');
      finish();
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await producer.enqueue(task, { id: 'after', value: 2 });
      proxy.setMode('pass');
      const returned = performance.now();
      await waitFor(async () => (await jobState(queue, 'test-live-after')) === 'completed', 30_000, 100);
      expect(performance.now() - returned).toBeLessThan(5_000);
    },
  );
}, 60_000);
