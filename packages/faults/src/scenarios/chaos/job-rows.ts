import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  ARCHIVE_EXPORT_JOB,
  ASSET_PURGE_JOB,
  BULK_ADD_GUILD_MEMBERS_JOB,
  type AnyJobContract,
} from '@switchboard/contracts';
import type { Pool } from '@switchboard/db';
import { bullQueue, jobIdOf } from '@switchboard/queue';
import { waitFor } from '@switchboard/testkit/wait';

/** The admin operations' rows, by family: `archive completed×12 failed×1`. */
export interface JobRows {
  /** `family status×count …` of every row. */
  summary: string;
  /** Rows still queued or running once the wait was over. */
  unfinished: number;
  /** Failed rows without a reason. */
  failedWithoutReason: number;
  /** Each row still unfinished with its job's state in BullMQ (`unknown`: there is none): `purge 123 queued, job unknown`. */
  stuck: string[];
}

/** The job that carries each family's rows, its id derived from the row id. */
const FAMILY_JOBS: Record<string, AnyJobContract> = {
  archive: ARCHIVE_EXPORT_JOB,
  purge: ASSET_PURGE_JOB,
  bulk: BULK_ADD_GUILD_MEMBERS_JOB,
};

const UNFINISHED_ROWS = `
  SELECT 'archive' AS family, id::text, status FROM archives WHERE status IN ('queued', 'running')
  UNION ALL SELECT 'purge', id::text, status FROM asset_purges WHERE status IN ('queued', 'running')
  UNION ALL SELECT 'bulk', id::text, status FROM bulk_operations WHERE status IN ('queued', 'running')`;

/** The row is the job's state and its id gives the job id: what BullMQ holds of each unfinished row's job. */
async function stuckRows(pool: Pool, redis: Redis, redisPrefix: string): Promise<string[]> {
  const { rows } = await pool.query<{ family: string; id: string; status: string }>(UNFINISHED_ROWS);
  const queues = new Map<string, Queue>();
  try {
    const described: string[] = [];
    for (const row of rows) {
      const job = FAMILY_JOBS[row.family]!;
      if (!queues.has(job.queue)) {
        queues.set(job.queue, bullQueue(job.queue, redis, redisPrefix));
      }
      const state = await queues.get(job.queue)!.getJobState(jobIdOf(job, row.id));
      described.push(`${row.family} ${row.id} ${row.status}, job ${state}`);
    }
    return described;
  } finally {
    await Promise.all([...queues.values()].map((queue) => queue.close()));
  }
}

const ROWS_BY_STATUS = `
  SELECT family, status, count(*)::int AS rows, count(*) FILTER (WHERE status = 'failed' AND error IS NULL)::int AS unexplained
  FROM (
    SELECT 'archive' AS family, status, error FROM archives
    UNION ALL SELECT 'purge', status, error FROM asset_purges
    UNION ALL SELECT 'bulk', status, error FROM bulk_operations
  ) AS operations
  GROUP BY family, status ORDER BY family, status`;

async function readRows(pool: Pool): Promise<Omit<JobRows, 'stuck'>> {
  const { rows } = await pool.query<{ family: string; status: string; rows: number; unexplained: number }>(
    ROWS_BY_STATUS,
  );
  return {
    summary: rows.map((row) => `${row.family} ${row.status}×${row.rows}`).join(' ') || 'none',
    unfinished: rows
      .filter((row) => row.status === 'queued' || row.status === 'running')
      .reduce((n, row) => n + row.rows, 0),
    failedWithoutReason: rows.reduce((n, row) => n + row.unexplained, 0),
  };
}

/**
 * Waits until every archive, purge and bulk add is completed or failed (a row is the job's
 * state), then reads them; a row still unfinished after `timeoutMs` is a job that was lost.
 */
export async function settledJobRows(
  pool: Pool,
  { redis, redisPrefix }: { redis: Redis; redisPrefix: string },
  timeoutMs: number,
): Promise<JobRows> {
  await waitFor(async () => (await readRows(pool)).unfinished === 0, timeoutMs, 500).catch(() => {});
  const rows = await readRows(pool);
  return { ...rows, stuck: rows.unfinished > 0 ? await stuckRows(pool, redis, redisPrefix) : [] };
}

export function jobRowProblems(rows: JobRows, timeoutMs: number): string[] {
  return [
    ...(rows.unfinished > 0
      ? [
          `${rows.unfinished} admin jobs neither completed nor failed ${timeoutMs / 1000} s after the faults (${rows.stuck.join('; ')})`,
        ]
      : []),
    ...(rows.failedWithoutReason > 0 ? [`${rows.failedWithoutReason} admin jobs failed without a reason`] : []),
  ];
}
