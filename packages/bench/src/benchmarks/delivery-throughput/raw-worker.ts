import { Worker, type Processor } from 'bullmq';
import { bullPrefix } from '@switchboard/queue';
import { createRedis } from '@switchboard/redis';
import { announceReady } from '@switchboard/runtime';

export interface RawWorkerOptions {
  name: string;
  queue: string;
  redisUrl: string;
  redisPrefix: string;
  concurrency: number;
}

/**
 * A bare BullMQ worker for a baseline: announces readiness over IPC (as our workers do) and
 * stops on SIGTERM. Completed jobs are kept as webhook-delivery jobs are, so every queue in a
 * comparison does the same bookkeeping.
 */
export async function runRawWorker(options: RawWorkerOptions, processor: Processor): Promise<void> {
  const worker = new Worker(options.queue, processor, {
    connection: createRedis(options.redisUrl, { role: 'worker', name: `bench-${options.name}` }),
    prefix: bullPrefix(options.redisPrefix),
    concurrency: options.concurrency,
    removeOnComplete: { age: 3600, count: 1000 },
  });
  await worker.waitUntilReady();
  announceReady(options.name, { queue: options.queue });
  process.once('SIGTERM', () => void worker.close().then(() => process.exit(0)));
}
