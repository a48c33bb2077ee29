import type { RequestHandler } from 'express';
import { ApiError } from '@switchboard/http';
import { actingKey, adminPrincipal, auditReason, recordAudit, type AuditEntryInput } from '../admin-auth/index.ts';
import type { GatewayDeps } from '../deps.ts';
import { isSafeMethod } from '../admin-session/index.ts';

/**
 * Every change bull-board's API offers (its `appRoutes.api`, @bull-board/api 9.10), in its own
 * order (first match wins, as in its router), with the audit action it records, or REFUSED.
 * A change not listed here is refused (404) rather than let through unaudited: a bull-board
 * upgrade adding one must add it here (dashboard-write-routes.test.ts fails until it does).
 */
const REFUSED = null;
const WRITE_ROUTES: ReadonlyArray<readonly [method: string, pattern: string, action: string | typeof REFUSED]> = [
  ['PUT', '/api/queues/pause', 'pause_all_queues'],
  ['PUT', '/api/queues/resume', 'resume_all_queues'],
  // Jobs are created with their row by the route that owns them, their payload parsed by the
  // producer (docs/decisions.md#dashboard-session, #jobs-and-their-rows): a job added or edited by
  // hand would have no row and no checked payload.
  ['POST', '/api/queues/:queueName/add', REFUSED],
  ['PUT', '/api/queues/:queueName/retry/:queueStatus', 'retry_all_jobs'],
  ['PUT', '/api/queues/:queueName/promote', 'promote_all_jobs'],
  ['PUT', '/api/queues/:queueName/clean/:queueStatus', 'clean_jobs'],
  ['PUT', '/api/queues/:queueName/pause', 'pause_queue'],
  ['PUT', '/api/queues/:queueName/resume', 'resume_queue'],
  ['PUT', '/api/queues/:queueName/concurrency', 'set_queue_concurrency'],
  ['PUT', '/api/queues/:queueName/rate-limit', 'set_queue_rate_limit'],
  ['PUT', '/api/queues/:queueName/rate-limit/release', 'release_queue_rate_limit'],
  ['PUT', '/api/queues/:queueName/empty', 'empty_queue'],
  ['PUT', '/api/queues/:queueName/obliterate', 'obliterate_queue'],
  ['PUT', '/api/queues/:queueName/job-schedulers/:schedulerId/remove', 'remove_job_scheduler'],
  ['PATCH', '/api/queues/:queueName/job-schedulers/:schedulerId', 'update_job_scheduler'],
  ['PUT', '/api/queues/:queueName/job-schedulers/:schedulerId/run', 'run_job_scheduler'],
  ['PUT', '/api/queues/:queueName/:jobId/retry', 'retry_job'],
  ['PUT', '/api/queues/:queueName/:jobId/clean', 'remove_job'],
  ['PUT', '/api/queues/:queueName/:jobId/promote', 'promote_job'],
  ['PATCH', '/api/queues/:queueName/:jobId/update-data', REFUSED],
  ['PATCH', '/api/queues/:queueName/:jobId/delay', 'change_job_delay'],
  ['PATCH', '/api/queues/:queueName/:jobId/priority', 'change_job_priority'],
  ['PUT', '/api/queues/:queueName/:jobId/remove-unprocessed-children', 'remove_unprocessed_children'],
];

interface WriteAction {
  /** The audit action, or null for a change the dashboard refuses. */
  action: string | null;
  params: Record<string, string>;
}

function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The table entry a change request matches, with its path parameters (decoded), or null. */
export function matchWriteRoute(method: string, path: string): WriteAction | null {
  const segments = path.split('/');
  for (const [routeMethod, pattern, action] of WRITE_ROUTES) {
    const parts = pattern.split('/');
    if (routeMethod !== method || parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = parts.every((part, i) => {
      if (!part.startsWith(':')) return part === segments[i];
      const value = decodedSegment(segments[i]!);
      if (value === null || value === '') return false;
      params[part.slice(1)] = value;
      return true;
    });
    if (matches) return { action, params };
  }
  return null;
}

/** bull-board's parameter names as the audit log's metadata keys (snake_case, as elsewhere). */
const METADATA_KEYS: Record<string, string> = {
  queueName: 'queue',
  jobId: 'job_id',
  queueStatus: 'status',
  schedulerId: 'scheduler_id',
};

/** One entry per change: on the job when there is one, else on the queue (`*` for all queues). */
function auditEntry(
  actor: Pick<AuditEntryInput, 'adminUserId' | 'apiKeyId'>,
  reason: string | null,
  action: string,
  params: Record<string, string>,
): AuditEntryInput {
  const queue = params['queueName'] ?? '*';
  const metadata: Record<string, string> = { queue, via: 'dashboard' };
  for (const [name, value] of Object.entries(params)) metadata[METADATA_KEYS[name] ?? name] = value;
  if (params['jobId'] !== undefined)
    return { ...actor, targetType: 'job', targetId: `${queue}:${params['jobId']}`, action, reason, metadata };
  return { ...actor, targetType: 'queue', targetId: queue, action, reason, metadata };
}

/**
 * Audits every change made through the dashboard (docs/decisions.md#every-admin-write-is-audited), as POST
 * /v1/admin/jobs/retry does: once bull-board answers with success, the entry is written
 * before the answer leaves, so an operator never sees a change succeed that left no entry.
 * Runs after the write ACL check; bull-board answers every API call with `res.json`.
 */
export function auditDashboardChanges({ pool, ids }: Pick<GatewayDeps, 'pool' | 'ids'>): RequestHandler {
  return (req, res, next) => {
    if (isSafeMethod(req)) return next();
    const write = matchWriteRoute(req.method, req.path);
    if (write === null) return next(new ApiError('NOT_FOUND'));
    if (write.action === null)
      return next(
        new ApiError('FORBIDDEN', {
          message: 'Jobs are added and their data set only by the routes that own them, not from the dashboard.',
        }),
      );
    const entry = auditEntry(actingKey(adminPrincipal(res)), auditReason(req), write.action, write.params);
    const send = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode >= 400) return send(body);
      recordAudit(pool, ids, entry).then(
        () => send(body),
        (error: unknown) => next(error),
      );
      return res;
    };
    next();
  };
}
