import { operationWorkerSetup } from '@switchboard/admin-operations';
import { BULK_ADD_GUILD_MEMBERS_JOB, BULK_ROW_SWEEP_JOB, QUEUES } from '@switchboard/contracts';
import type { WorkerContext, WorkerSetup } from '@switchboard/runtime';
import { addMembersRunner } from './add-members.ts';
import { bulkWorkerConfigSchema, type BulkWorkerConfig } from './config.ts';

/** The queue this worker consumes and every job on it. */
export const BULK_WORKER_QUEUE = QUEUES.bulkOperations;
export const BULK_WORKER_JOBS = [BULK_ADD_GUILD_MEMBERS_JOB, BULK_ROW_SWEEP_JOB] as const;

export function bulkWorkerSetup({
  config,
  resources,
  ids,
  logger,
}: WorkerContext<BulkWorkerConfig>): WorkerSetup<typeof BULK_WORKER_JOBS> {
  const run = addMembersRunner({ pool: resources.pool, ids, maxGuildsPerUser: config.BULK_MAX_GUILDS_PER_USER });
  return operationWorkerSetup({
    resources,
    config,
    logger,
    table: 'bulk_operations',
    publicError: 'The bulk operation failed; request it again.',
    run,
    job: BULK_ADD_GUILD_MEMBERS_JOB,
    sweepJob: BULK_ROW_SWEEP_JOB,
  });
}

/** What main.ts runs: the jobs of this worker's queue, what handles them, and its config. */
export const bulkWorker = {
  contracts: BULK_WORKER_JOBS,
  handlers: bulkWorkerSetup,
  config: bulkWorkerConfigSchema,
};
