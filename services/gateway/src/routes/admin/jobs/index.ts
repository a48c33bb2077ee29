import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { QUEUES, type failedJobListResponseSchema, type JobRetryResponse } from '@switchboard/contracts';
import { validate } from '@switchboard/http';
import type { FailedJob } from '@switchboard/queue';
import { actingKey, adminPrincipal, auditReason, recordAudit } from '../../../admin-auth/index.ts';
import type { GatewayDeps } from '../../../deps.ts';
import type { AdminHandlers } from '../handlers.ts';
import { listFailedJobsQuery, retryJobsBody } from './schemas.ts';

const TARGET_TYPE = 'job';

type FailedJobList = z.output<typeof failedJobListResponseSchema>;

function presentFailedJob(job: FailedJob): FailedJobList['jobs'][number] {
  return {
    queue: job.queue,
    id: job.id,
    name: job.name,
    attempts: job.attempts,
    last_error: job.lastError,
    failed_at: new Date(job.failedAt).toISOString(),
  };
}

/** GET /admin/jobs/failed: failed jobs of one queue or of all, newest failure first (docs/decisions.md#failed-jobs). */
function listFailed({ producer }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const query = validate(listFailedJobsQuery, req.query);
    const { jobs, total } = await producer.failedJobs(
      query.queue ? [query.queue] : Object.values(QUEUES),
      query.offset,
      query.limit,
    );
    const body: FailedJobList = { jobs: jobs.map(presentFailedJob), total };
    res.json(body);
  };
}

/** POST /admin/jobs/retry: each failed job back to waiting, attempts reset; one audit entry per job retried. */
function retry({ pool, producer, ids }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const { jobs } = validate(retryJobsBody, req.body);
    const retried: JobRetryResponse['retried'] = [];
    const errors: JobRetryResponse['errors'] = [];
    for (const job of jobs) {
      const outcome = await producer.retryFailedJob(job.queue, job.id);
      if (outcome === 'retried') retried.push(job);
      else errors.push({ ...job, error: outcome === 'unknown_job' ? 'UNKNOWN_JOB' : 'NOT_FAILED' });
    }
    if (retried.length > 0) {
      const actor = actingKey(adminPrincipal(res));
      await recordAudit(
        pool,
        ids,
        retried.map((job) => ({
          ...actor,
          targetType: TARGET_TYPE,
          targetId: `${job.queue}:${job.id}`,
          action: 'retry_job',
          reason: auditReason(req),
          metadata: { queue: job.queue, job_id: job.id },
        })),
      );
    }
    const body: JobRetryResponse = { retried, errors };
    res.json(body);
  };
}

export function jobHandlers(deps: GatewayDeps): AdminHandlers {
  return {
    'GET /v1/admin/jobs/failed': listFailed(deps),
    'POST /v1/admin/jobs/retry': retry(deps),
  };
}
