import { queuedRowSweep } from '@switchboard/admin-operations';
import { ARCHIVE_EXPORT_JOB, ARCHIVE_RETENTION_JOB, ARCHIVE_ROW_SWEEP_JOB, QUEUES } from '@switchboard/contracts';
import { failArchive } from '@switchboard/db';
import type { WorkerContext, WorkerSetup } from '@switchboard/runtime';
import { archiveRunner } from './build.ts';
import { archiveWorkerConfigSchema, type ArchiveWorkerConfig } from './config.ts';
import { archiveMetrics } from './metrics.ts';
import { retentionHandler } from './retention.ts';

/** The queue this worker consumes and every job on it. */
export const ARCHIVE_WORKER_QUEUE = QUEUES.archiveExports;
export const ARCHIVE_WORKER_JOBS = [ARCHIVE_EXPORT_JOB, ARCHIVE_RETENTION_JOB, ARCHIVE_ROW_SWEEP_JOB] as const;

/**
 * What a failed archive's row says: a subject that does not exist is the requester's to know;
 * anything else goes to the logs only (docs/decisions.md#jobs-and-their-rows).
 */
function archiveError(reason: string): string {
  return /^(Guild|User) \d+ not found$/.test(reason) ? reason : 'The archive could not be built; request it again.';
}

export function archiveWorkerSetup({
  config,
  logger,
  resources,
  metrics,
}: WorkerContext<ArchiveWorkerConfig>): WorkerSetup<typeof ARCHIVE_WORKER_JOBS> {
  const { pool, storage } = resources;
  const sweep = queuedRowSweep({
    ...resources,
    config,
    table: 'archives',
    contract: ARCHIVE_ROW_SWEEP_JOB,
    rowJob: ARCHIVE_EXPORT_JOB,
    failedJobError: archiveError,
    logger,
  });
  return {
    handlers: {
      [ARCHIVE_EXPORT_JOB.name]: archiveRunner({
        pool,
        storage,
        logger,
        progressIntervalMs: config.ARCHIVE_PROGRESS_INTERVAL_MS,
        metrics: archiveMetrics(metrics),
      }),
      [ARCHIVE_RETENTION_JOB.name]: retentionHandler({ pool, storage, logger }),
      [ARCHIVE_ROW_SWEEP_JOB.name]: sweep.handler,
    },
    onFinalFailure: {
      [ARCHIVE_EXPORT_JOB.name]: async ({ archiveId }, reason) => {
        await failArchive(pool, archiveId, archiveError(reason));
      },
    },
    schedules: [
      {
        id: 'archive-retention',
        contract: ARCHIVE_RETENTION_JOB,
        payload: {},
        everyMs: config.ARCHIVE_RETENTION_INTERVAL_MS,
      },
      sweep.schedule,
    ],
    close: sweep.close,
  };
}

/** What main.ts runs: the jobs of this worker's queue, what handles them, and its config. */
export const archiveWorker = {
  contracts: ARCHIVE_WORKER_JOBS,
  handlers: archiveWorkerSetup,
  config: archiveWorkerConfigSchema,
};
