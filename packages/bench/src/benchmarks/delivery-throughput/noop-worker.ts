// A raw BullMQ worker with a no-op processor: the queue's own cost per job, for the baseline.
import { loadConfig, z } from '@switchboard/config';
import { runRawWorker } from './raw-worker.ts';

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

await runRawWorker(
  {
    name: 'noop-worker',
    queue: config.NOOP_QUEUE,
    redisUrl: config.REDIS_URL,
    redisPrefix: config.REDIS_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
  },
  async () => undefined,
);
