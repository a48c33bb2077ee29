import type { Queue } from 'bullmq';
import { QUEUES } from '@switchboard/contracts';
import { bullQueue } from '@switchboard/queue';
import { closeRedis, createRedis } from '@switchboard/redis';

export interface BenchQueue {
  queue: Queue;
  close(): Promise<void>;
}

/** A BullMQ queue of the run's Redis prefix (webhook-deliveries unless named), to pause, watch and empty. */
export function openQueue(env: Record<string, string>, name: string = QUEUES.webhookDeliveries): BenchQueue {
  const connection = createRedis(env['REDIS_URL']!, { role: 'worker', name: `bench-${name}` });
  const queue = bullQueue(name, connection, env['REDIS_PREFIX']!);
  return {
    queue,
    close: async () => {
      await queue.close();
      await closeRedis(connection);
    },
  };
}

/** Jobs in any of `states`, together. */
async function jobsIn(queue: Queue, ...states: Parameters<Queue['getJobCounts']>): Promise<number> {
  const counts = await queue.getJobCounts(...states);
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

/** Jobs not finished yet (waiting, also while paused, active, delayed). */
export function unfinished(queue: Queue): Promise<number> {
  return jobsIn(queue, 'waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
}

/**
 * Jobs waiting or running. Unlike `unfinished`, delayed jobs do not count: a job scheduler's
 * next tick (the webhook worker's dedupe pruning) waits there for as long as the worker runs.
 */
export function pending(queue: Queue): Promise<number> {
  return jobsIn(queue, 'waiting', 'active', 'prioritized');
}

/** Removes the queue and every job in it: a benchmark leaves no jobs behind in Redis. */
export async function emptyQueue(queue: Queue): Promise<void> {
  await queue.obliterate({ force: true });
}
