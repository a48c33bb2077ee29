import { type Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { waitFor } from '@switchboard/testkit/wait';

/**
 * Adds a job named `name` to `queue` and lets a real BullMQ Worker fail it for good at once
 * (reason `<name> could not run`), as a worker whose handler throws would. Returns its id.
 */
export async function failedJob(queue: Queue, redisUrl: string, name: string): Promise<string> {
  const job = await queue.add(name, {}, { attempts: 1 });
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const worker = new Worker(
    queue.name,
    async () => {
      throw new UnrecoverableError(`${name} could not run`);
    },
    { connection, prefix: queue.opts.prefix },
  );
  try {
    await waitFor(async () => (await queue.getJobState(job.id!)) === 'failed', 10_000);
  } finally {
    await worker.close();
    connection.disconnect();
  }
  return job.id!;
}
