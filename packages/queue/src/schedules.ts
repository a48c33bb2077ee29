import type { AnyJobContract, JobContract, QueueName } from '@switchboard/contracts';
import type { Logger } from '@switchboard/logger';
import { toJobOptions } from './options.ts';
import { bullQueue } from './bull-queue.ts';
import type { RedisClient } from '@switchboard/redis';

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

/** Any schedule, whatever its payload, for a worker's list of them (each is typed where declared). */
export type AnyJobSchedule = Omit<JobSchedule, 'contract'> & { contract: AnyJobContract };

/** Refuses a schedule of another queue, before anything is written. */
export function checkSchedules(queueName: QueueName, schedules: readonly AnyJobSchedule[]): void {
  for (const { contract, payload, id } of schedules) {
    if (contract.queue !== queueName)
      throw new Error(`schedule ${id} is for queue ${contract.queue}, not ${queueName}`);
    contract.payload.parse(payload);
  }
}

/**
 * Makes the queue's job schedulers exactly `schedules`: each is created or updated, and one an
 * earlier version set up but this one no longer declares is removed (it would go on adding jobs
 * that no handler takes, each a failed job). A queue has one worker service
 * (docs/decisions.md#one-worker-service-per-queue, #periodic-jobs), so its schedulers are that
 * worker's. The worker's own connection is not used.
 */
export async function syncSchedules(
  connection: RedisClient,
  redisPrefix: string,
  queueName: QueueName,
  schedules: readonly AnyJobSchedule[],
  logger: Logger,
): Promise<void> {
  const queue = bullQueue(queueName, connection, redisPrefix);
  try {
    const declared = new Set(schedules.map((schedule) => schedule.id));
    for (const { key } of await queue.getJobSchedulers()) {
      if (declared.has(key)) continue;
      await queue.removeJobScheduler(key);
      logger.warn({ schedule: key, queue: queueName }, 'job schedule no longer declared, removed');
    }
    for (const { contract, payload, everyMs, id } of schedules) {
      const parsed = contract.payload.parse(payload);
      const { jobId: _derived, ...options } = toJobOptions(contract, parsed);
      await queue.upsertJobScheduler(id, { every: everyMs }, { name: contract.name, data: parsed, opts: options });
      logger.info({ schedule: id, jobName: contract.name, everyMs }, 'job schedule set');
    }
  } finally {
    await queue.close();
  }
}
