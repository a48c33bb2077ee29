// A raw BullMQ worker with a no-op processor: the queue's own cost per job, for the baseline.
import { Worker } from 'bullmq';
import { loadConfig, z } from '@switchboard/config';
import { bullPrefix } from '@switchboard/queue';
import { createRedis } from '@switchboard/redis';
import { announceReady } from '@switchboard/runtime';

const config = loadConfig(
  z.object({
    REDIS_URL: z.string(),
    REDIS_PREFIX: z.string(),
    NOOP_QUEUE: z.string(),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1),
  }),
  process.env,
  'noop-worker',
);

const worker = new Worker(config.NOOP_QUEUE, async () => undefined, {
  connection: createRedis(config.REDIS_URL, { role: 'worker', name: 'bench-noop-worker' }),
  prefix: bullPrefix(config.REDIS_PREFIX),
  concurrency: config.WORKER_CONCURRENCY,
  // The same retention as webhook-delivery jobs, so both queues do the same bookkeeping.
  removeOnComplete: { age: 3600, count: 1000 },
});
await worker.waitUntilReady();
announceReady('noop-worker', { queue: config.NOOP_QUEUE });
process.once('SIGTERM', () => void worker.close().then(() => process.exit(0)));
