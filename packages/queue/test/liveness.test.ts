import { expect, it } from 'vitest';
import { QUEUES } from '@switchboard/contracts';
import { SUBSCRIBER_PING_INTERVAL_MS, WORKER_SOCKET_TIMEOUT_MS } from '@switchboard/redis';
import { startFaultProxy, useTestEnvironment, waitFor } from '@switchboard/testkit';
import { startWorker } from '../src/index.ts';
import { isolatedQueue, jobState, silentLogger, testJob, useFileRedis } from './helpers.ts';

const environment = useTestEnvironment();
const redis = useFileRedis(environment, 'liveness-test');
const task = testJob(QUEUES.bulkOperations, 'test-live', { attempts: 1 });

it('a worker whose connections died without a word takes jobs again on new ones', async () => {
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
    handlers: { 'test-live': async ({ value }) => value * 2 },
    connection: proxy.urlFor(environment.redisUrl),
    redisPrefix,
    logger: silentLogger,
  });
  try {
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
  } finally {
    await worker.close(1_000);
    await close();
    await proxy.close();
  }
}, 60_000);
