import { operationJob, queuedRowSweep } from '@switchboard/admin-operations';
import { ASSET_PURGE_JOB, ASSET_PURGE_ROW_SWEEP_JOB, QUEUES } from '@switchboard/contracts';
import type { WorkerContext, WorkerSetup } from '@switchboard/runtime';
import type { AssetPurgeWorkerConfig } from './config.ts';
import { purgeRunner } from './purge.ts';

/** The queue this worker consumes and every job on it. */
export const ASSET_PURGE_WORKER_QUEUE = QUEUES.assetPurges;
export const ASSET_PURGE_WORKER_JOBS = [ASSET_PURGE_JOB, ASSET_PURGE_ROW_SWEEP_JOB] as const;

export function assetPurgeWorkerSetup({
  config,
  resources,
  ids,
  logger,
}: WorkerContext<AssetPurgeWorkerConfig>): WorkerSetup<typeof ASSET_PURGE_WORKER_JOBS> {
  const purge = operationJob(
    resources.pool,
    'asset_purges',
    'The asset purge failed; request it again.',
    purgeRunner({ ...resources, ids, logger }),
  );
  const sweep = queuedRowSweep({
    ...resources,
    config,
    table: 'asset_purges',
    contract: ASSET_PURGE_ROW_SWEEP_JOB,
    logger,
  });
  return {
    handlers: { [ASSET_PURGE_JOB.name]: purge.handler, [ASSET_PURGE_ROW_SWEEP_JOB.name]: sweep.handler },
    onFinalFailure: { [ASSET_PURGE_JOB.name]: purge.onFinalFailure },
    schedules: [sweep.schedule],
    close: sweep.close,
  };
}
