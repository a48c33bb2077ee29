import { Worker, type Processor } from 'bullmq';
import { bullPrefix } from '@switchboard/queue';
import { Redis } from 'ioredis';
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
 * comparison does the same bookkeeping. Its connection is a plain ioredis client, as a raw
 * BullMQ worker's is: what createRedis adds (writes held per tick, arguments let go) is ours,
 * and part of what the comparison measures.
 */
export async function runRawWorker(options: RawWorkerOptions, processor: Processor): Promise<void> {
  const connection = new Redis(options.redisUrl, {
    maxRetriesPerRequest: null,
    connectionName: `bench-${options.name}`,
  });
  const worker = new Worker(options.queue, processor, {
    connection,
    prefix: bullPrefix(options.redisPrefix, { queue: options.queue, connection }),
    concurrency: options.concurrency,
    removeOnComplete: { age: 3600, count: 1000 },
  });
  await worker.waitUntilReady();
  announceReady(options.name, { queue: options.queue });
  process.once('SIGTERM', () => void worker.close().then(() => process.exit(0)));
}
