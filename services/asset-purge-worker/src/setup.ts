import { operationWorkerSetup } from '@switchboard/admin-operations';
import { ASSET_PURGE_JOB, ASSET_PURGE_ROW_SWEEP_JOB, QUEUES } from '@switchboard/contracts';
import type { WorkerContext, WorkerSetup } from '@switchboard/runtime';
import { assetPurgeWorkerConfigSchema, type AssetPurgeWorkerConfig } from './config.ts';
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
  return operationWorkerSetup({
    resources,
    config,
    logger,
    table: 'asset_purges',
    publicError: 'The asset purge failed; request it again.',
    run: purgeRunner({ ...resources, ids, logger }),
    job: ASSET_PURGE_JOB,
    sweepJob: ASSET_PURGE_ROW_SWEEP_JOB,
  });
}

/** What main.ts runs: the jobs of this worker's queue, what handles them, and its config. */
export const assetPurgeWorker = {
  contracts: ASSET_PURGE_WORKER_JOBS,
  handlers: assetPurgeWorkerSetup,
  config: assetPurgeWorkerConfigSchema,
};
