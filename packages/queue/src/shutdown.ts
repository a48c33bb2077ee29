import type { Job } from 'bullmq';
import type { InFlight } from '@switchboard/batching';
import type { Logger } from '@switchboard/logger';

export interface ActiveJob {
  job: Job;
  /** The lock token this worker holds on the job. */
  token: string;
}

export interface StoppableWorker {
  close(force?: boolean): Promise<void>;
  disconnect(): Promise<void>;
  cancelAllJobs(reason?: string): void;
  stopLockRenewal(): Promise<void>;
}

/** Whether `work` settled within `timeoutMs` (it keeps running if not). */
export async function settlesWithin(work: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, timeoutMs));
  });
  const settled = work.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([settled, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Puts unfinished jobs back in the queue now, so another worker takes them without a stall. */
async function releaseJobs(active: InFlight<ActiveJob>, logger: Logger): Promise<void> {
  await Promise.all(
    active.values().map(async ({ job, token }) => {
      try {
        await job.moveToWait(token);
        logger.warn({ jobName: job.name, jobId: job.id }, 'job released at shutdown');
      } catch (error) {
        // Finished meanwhile, or Redis is away: then the lock expires and the job stalls.
        logger.warn({ jobName: job.name, jobId: job.id, reason: (error as Error).message }, 'could not release job');
      }
    }),
  );
}

/**
 * Graceful close within `timeoutMs`: stop fetching, let active jobs finish; at the bound,
 * abort their signals, put them back in the queue and drop the connections. The handlers of
 * released jobs may still be running (the process is expected to exit); whatever they do
 * next cannot complete the job, whose lock is gone.
 */
export async function shutDownWorker(
  worker: StoppableWorker,
  active: InFlight<ActiveJob>,
  timeoutMs: number,
  logger: Logger,
): Promise<void> {
  const releaseBudgetMs = Math.min(1000, Math.floor(timeoutMs / 4));
  const graceful = worker.close();
  graceful.catch((error: Error) => logger.warn({ reason: error.message }, 'worker close failed'));
  if (await settlesWithin(graceful, timeoutMs - releaseBudgetMs)) {
    logger.info('worker closed');
    return;
  }
  logger.warn(
    { activeJobIds: active.values().map(({ job }) => job.id), timeoutMs },
    'shutdown timeout reached, releasing active jobs',
  );
  worker.cancelAllJobs('worker shutting down');
  await settlesWithin(releaseJobs(active, logger), releaseBudgetMs / 2);
  await worker.stopLockRenewal();
  await settlesWithin(worker.disconnect(), releaseBudgetMs / 2);
}
