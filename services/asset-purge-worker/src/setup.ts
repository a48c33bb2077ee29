import { operationJob } from '@switchboard/admin-operations';
import { ASSET_PURGE_JOB, QUEUES } from '@switchboard/contracts';
import type { WorkerContext, WorkerConfig, WorkerSetup } from '@switchboard/runtime';
import { purgeRunner } from './purge.ts';

/** The queue this worker consumes and every job on it. */
export const ASSET_PURGE_WORKER_QUEUE = QUEUES.assetPurges;
export const ASSET_PURGE_WORKER_JOBS = [ASSET_PURGE_JOB] as const;

export function assetPurgeWorkerSetup({
  resources,
  ids,
  logger,
}: WorkerContext<WorkerConfig>): WorkerSetup<typeof ASSET_PURGE_WORKER_JOBS> {
  const purge = operationJob(
    resources.pool,
    'asset_purges',
    'The asset purge failed; request it again.',
    purgeRunner({ ...resources, ids, logger }),
  );
  return {
    handlers: { [ASSET_PURGE_JOB.name]: purge.handler },
    onFinalFailure: { [ASSET_PURGE_JOB.name]: purge.onFinalFailure },
  };
}
