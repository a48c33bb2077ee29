import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobContract } from '@switchboard/contracts';
import type { Logger } from '@switchboard/logger';
import { bullPrefix, toJobOptions } from './options.ts';

/**
 * Periodic work as a BullMQ job scheduler: Redis holds one schedule per id and adds one job per
 * tick, so however many replicas run the worker, each tick runs once (a `setInterval` would
 * run it on every replica). `payload` is parsed by the contract like any enqueue.
 */
export interface JobSchedule<Payload = unknown, Input = Payload> {
  /** Stable: upserting the same id replaces the schedule instead of adding a second one. */
  id: string;
  contract: JobContract<Payload, Input>;
  payload: Input;
  everyMs: number;
}

/** Creates or updates every schedule on its queue; the worker's own connection is not used. */
export async function upsertSchedules(connection: Redis, redisPrefix: string, schedules: readonly JobSchedule<any, any>[], logger: Logger): Promise<void> {
  for (const schedule of schedules) {
    const { contract, payload, everyMs, id } = schedule;
    const parsed = contract.payload.parse(payload);
    const { jobId: _derived, ...options } = toJobOptions(contract, parsed);
    const queue = new Queue(contract.queue, { connection, prefix: bullPrefix(redisPrefix) });
    try {
      await queue.upsertJobScheduler(id, { every: everyMs }, { name: contract.name, data: parsed, opts: options });
      logger.info({ schedule: id, jobName: contract.name, everyMs }, 'job schedule set');
    } finally {
      await queue.close();
    }
  }
}
