import { operationJob } from '@switchboard/admin-operations';
import { BULK_ADD_GUILD_MEMBERS_JOB, QUEUES } from '@switchboard/contracts';
import type { WorkerContext, WorkerSetup } from '@switchboard/runtime';
import { addMembersRunner } from './add-members.ts';
import type { BulkWorkerConfig } from './config.ts';

/** The queue this worker consumes and every job on it. */
export const BULK_WORKER_QUEUE = QUEUES.bulkOperations;
export const BULK_WORKER_JOBS = [BULK_ADD_GUILD_MEMBERS_JOB] as const;

export function bulkWorkerSetup({
  config,
  resources,
  ids,
}: WorkerContext<BulkWorkerConfig>): WorkerSetup<typeof BULK_WORKER_JOBS> {
  const run = addMembersRunner({ pool: resources.pool, ids, maxGuildsPerUser: config.BULK_MAX_GUILDS_PER_USER });
  const addMembers = operationJob(
    resources.pool,
    'bulk_operations',
    'The bulk operation failed; request it again.',
    run,
  );
  return {
    handlers: { [BULK_ADD_GUILD_MEMBERS_JOB.name]: addMembers.handler },
    onFinalFailure: { [BULK_ADD_GUILD_MEMBERS_JOB.name]: addMembers.onFinalFailure },
  };
}
