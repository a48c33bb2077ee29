import type { JobType, Queue } from 'bullmq';
import { env } from '@switchboard/config';
import type { AnyJobContract } from '@switchboard/contracts';
import { failArchive, type Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import { bullQueue, jobIdOf, type AnyJobSchedule } from '@switchboard/queue';
import { failOperation, type OperationTable } from './rows.ts';
import type { RedisClient } from '@switchboard/redis';

/** The tables whose rows are jobs' states, each inserted by the gateway before its job is enqueued. */
export type JobRowTable = OperationTable | 'archives';

/** The variables of a worker that sweeps its family's rows (each operation worker's config extends it). */
export const queuedRowSweepConfig = {
  /**
   * A row `queued` this long with no job in Redis is failed. Far longer than an enqueue can
   * take (the gateway's Redis bound is seconds), so a row is never failed under the add that
   * will carry its job.
   */
  QUEUED_ROW_ORPHAN_AGE_MS: env.int(1000, 7 * 24 * 60 * 60 * 1000).default(10 * 60 * 1000),
  QUEUED_ROW_SWEEP_INTERVAL_MS: env.int(100, 24 * 60 * 60 * 1000).default(60 * 1000),
};

export const NEVER_QUEUED = 'The job was never queued; request it again.';
export const JOB_LOST = 'The job was lost; request it again.';

/** Rows examined per run: a backlog of them is failed over several ticks. */
const BATCH = 500;

const CREATED_AT: Record<JobRowTable, string> = {
  archives: 'requested_at',
  asset_purges: 'created_at',
  bulk_operations: 'created_at',
};

/** What BullMQ holds of a row's job: its state (`unknown` when there is none), and why it failed. */
export interface RowJobState {
  state: JobType | 'unknown';
  /** The job's last error, when it failed for good. */
  failedReason?: string | undefined;
}

/** Reads a row's job from `queue`: its state, and for a job that failed for good, why. */
export function rowJobStates(queue: Queue): (jobId: string) => Promise<RowJobState> {
  return async (jobId) => {
    const state = await queue.getJobState(jobId);
    if (state !== 'failed') return { state };
    return { state, failedReason: (await queue.getJob(jobId))?.failedReason };
  };
}

export interface QueuedRowSweepDeps {
  pool: Pool;
  table: JobRowTable;
  /** The job each row is carried by, its id derived from the row id. */
  rowJob: AnyJobContract;
  jobOf(jobId: string): Promise<RowJobState>;
  /** The error a row shows when its job failed for good: what the family's final-failure handler writes. */
  failedJobError(reason: string): string;
  orphanAgeMs: number;
  logger: Logger;
}

const fail = (pool: Pool, table: JobRowTable, id: string, reason: string) =>
  table === 'archives' ? failArchive(pool, id, reason) : failOperation(pool, table, id, reason);

/** The error a swept row is failed with, or `undefined` when its job is still alive in Redis. */
function sweptRowError(
  status: 'queued' | 'running',
  job: RowJobState,
  failedJobError: (reason: string) => string,
): string | undefined {
  if (job.state === 'unknown') return status === 'queued' ? NEVER_QUEUED : JOB_LOST;
  if (job.state === 'failed') return failedJobError(job.failedReason ?? '');
  return undefined;
}

/**
 * Fails the rows `queued` (or `running`) for longer than `orphanAgeMs` since they were created
 * (or started) whose job Redis does not hold, so that no row waits for ever on a job that was
 * never added, or that Redis lost (a failover or a restart can drop recent writes); the
 * requester was answered a 503 or lost the connection, or sees the reason, and asks again. A
 * job added after all finds its row failed and does nothing (the row's moves are conditional).
 * A row whose job failed for good is failed as its final-failure handler would have: that
 * handler runs once, after BullMQ has moved the job, so a worker killed in between or a
 * database away at that moment would otherwise leave the row for ever.
 */
export function queuedRowSweepHandler(deps: QueuedRowSweepDeps): () => Promise<{ failed: number }> {
  const { pool, table, rowJob, orphanAgeMs, logger } = deps;
  return async () => {
    const { rows } = await pool.query<{ id: string; status: 'queued' | 'running' }>(
      `SELECT id::text, status FROM ${table}
       WHERE status IN ('queued', 'running')
         AND coalesce(started_at, ${CREATED_AT[table]}) < now() - make_interval(secs => $1::double precision / 1000)
       ORDER BY id LIMIT ${BATCH}`,
      [orphanAgeMs],
    );
    let failed = 0;
    for (const { id, status } of rows) {
      const job = await deps.jobOf(jobIdOf(rowJob, id));
      const error = sweptRowError(status, job, deps.failedJobError);
      if (error === undefined || !(await fail(pool, table, id, error))) continue;
      failed += 1;
      logger.warn({ table, id, status, jobState: job.state }, 'row of a missing or failed job failed');
    }
    return { failed };
  };
}

export interface QueuedRowSweep {
  handler: () => Promise<{ failed: number }>;
  schedule: AnyJobSchedule;
  close(): Promise<void>;
}

/**
 * The sweep of one worker's family: its handler, its schedule (`contract`, the sweep's own job),
 * and the queue it reads the states of `rowJob`'s jobs from (the job each row is carried by,
 * its id derived from the row id).
 */
export function queuedRowSweep(options: {
  pool: Pool;
  redis: RedisClient;
  config: { REDIS_PREFIX: string; QUEUED_ROW_ORPHAN_AGE_MS: number; QUEUED_ROW_SWEEP_INTERVAL_MS: number };
  table: JobRowTable;
  contract: AnyJobContract;
  rowJob: AnyJobContract;
  failedJobError: (reason: string) => string;
  logger: Logger;
}): QueuedRowSweep {
  const { pool, redis, config, table, contract, rowJob, failedJobError, logger } = options;
  // Reads job states only; the connection stays the process's.
  const queue = bullQueue(rowJob.queue, redis, config.REDIS_PREFIX);
  return {
    handler: queuedRowSweepHandler({
      pool,
      table,
      rowJob,
      jobOf: rowJobStates(queue),
      failedJobError,
      orphanAgeMs: config.QUEUED_ROW_ORPHAN_AGE_MS,
      logger,
    }),
    schedule: {
      id: `${contract.queue}-queued-row-sweep`,
      contract,
      payload: {},
      everyMs: config.QUEUED_ROW_SWEEP_INTERVAL_MS,
    },
    close: () => queue.close(),
  };
}
