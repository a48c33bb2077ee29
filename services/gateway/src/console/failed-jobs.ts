// The failed jobs screen: failed jobs of every queue (or one), page by page, each retried through
// a confirmation page; and the way to the queue dashboard.
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { QUEUES, type JobRetryResponse, type QueueName } from '@switchboard/contracts';
import { adminPrincipal, grantedAcl } from '../admin-auth/index.ts';
import { publicDashboardPath } from '../dashboard/paths.ts';
import { field, parseForm } from './form.ts';
import { html, timeCell, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { page, requireAnyAcl, sendRefusal } from './layout.ts';
import { noticeOf } from './notices.ts';
import { reasonField } from './reason-field.ts';
import { routeAcls } from './route-acls.ts';

// Both paths are also navigation entries (layout.ts SCREENS), shown by the same route ACLs.
const FAILED_JOBS_SCREEN = '/jobs/failed';
const QUEUE_DASHBOARD_LINK = '/queue-dashboard';
const LIST_API = '/v1/admin/jobs/failed';
const RETRY_API = '/v1/admin/jobs/retry';
const RETRY_ACLS = routeAcls(`POST ${RETRY_API}`);
/** Whoever may open a dashboard session may open the dashboard. */
const DASHBOARD_ACLS = routeAcls('POST /v1/admin/dashboard/session');
const PAGE_SIZE = 50;
/** The list route's own bound on a page. */
const MAX_PAGE_SIZE = 100;
const TITLE = 'Failed jobs';

interface FailedJob {
  queue: QueueName;
  id: string;
  name: string;
  attempts: number;
  last_error: string;
  failed_at: string;
}

const queueName = z.enum(Object.values(QUEUES) as [QueueName, ...QueueName[]]);
const listQuery = z.object({
  queue: queueName.optional().catch(undefined),
  offset: z.coerce.number().int().min(0).max(100_000).catch(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).catch(PAGE_SIZE),
});
type ListQuery = z.output<typeof listQuery>;
const retryForm = z.object({ queue: queueName, id: z.string().min(1).max(200), reason: field, confirm: field });

/** Why the API could not retry a job, in words. */
const RETRY_ERRORS: Record<JobRetryResponse['errors'][number]['error'], string> = {
  UNKNOWN_JOB: 'The job is gone: it was removed from its queue.',
  NOT_FAILED: 'The job is no longer failed: someone retried it already.',
};

function listLink(screen: string, query: ListQuery, offset: number): string {
  const params = new URLSearchParams();
  if (query.queue !== undefined) params.set('queue', query.queue);
  if (query.limit !== PAGE_SIZE) params.set('limit', String(query.limit));
  if (offset > 0) params.set('offset', String(offset));
  const text = params.toString();
  return text === '' ? screen : `${screen}?${text}`;
}

function queueFilter(screen: string, query: ListQuery): Html {
  const options = Object.values(QUEUES).map(
    (queue) => html`<option value="${queue}"${query.queue === queue ? html` selected` : ''}>${queue}</option>`,
  );
  return html`<form method="get" action="${screen}">
<label for="queue">Queue</label>
<select id="queue" name="queue"><option value="">Every queue</option>${options}</select>
${query.limit === PAGE_SIZE ? '' : html`<input type="hidden" name="limit" value="${query.limit}">`}
<button type="submit">Show</button>
</form>`;
}

function jobTable(ctx: ConsoleContext, jobs: FailedJob[], canRetry: boolean): Html {
  if (jobs.length === 0) return html`<p>No failed jobs here.</p>`;
  const rows = jobs.map((job) => {
    const retry = `${ctx.base}${FAILED_JOBS_SCREEN}/retry?${new URLSearchParams({ queue: job.queue, id: job.id })}`;
    return html`<tr>
<td>${job.queue}</td>
<td>${job.name} <span class="hint">(id <code>${job.id}</code>)</span></td>
<td>${job.attempts}</td>
<td>${job.last_error}</td>
<td>${timeCell(job.failed_at, '')}</td>
${canRetry ? html`<td><a href="${retry}" data-confirm aria-label="Retry job ${job.id} of ${job.queue}">Retry…</a></td>` : ''}
</tr>`;
  });
  return html`<table><caption>Failed jobs, newest failure first</caption><thead><tr><th scope="col">Queue</th><th scope="col">Job</th><th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Failed</th>${canRetry ? html`<th scope="col">Action</th>` : ''}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** Previous and Next by offset; the list route counts every failed job, so the last page is known. */
function pager(screen: string, query: ListQuery, total: number): Html {
  const previous =
    query.offset > 0
      ? html`<a href="${listLink(screen, query, Math.max(0, query.offset - query.limit))}" rel="prev">Previous page</a>`
      : '';
  const next =
    query.offset + query.limit < total
      ? html`<a href="${listLink(screen, query, query.offset + query.limit)}" rel="next">Next page</a>`
      : html`<span>Last page.</span>`;
  return html`<nav class="pager" aria-label="Pages">${previous}${next}</nav>`;
}

async function listPage(ctx: ConsoleContext, req: Request, res: Response): Promise<void> {
  const query = listQuery.parse(req.query);
  const params = new URLSearchParams({ limit: String(query.limit), offset: String(query.offset) });
  if (query.queue !== undefined) params.set('queue', query.queue);
  const answer = await ctx.api(req, res, { method: 'GET', path: `${LIST_API}?${params}` });
  const options = { base: ctx.base, title: TITLE, current: FAILED_JOBS_SCREEN };
  if (answer.status !== 200) return sendRefusal(res, options, answer, html``);
  const list = answer.body as { jobs: FailedJob[]; total: number };
  const principal = adminPrincipal(res);
  const canRetry = grantedAcl(principal, RETRY_ACLS) !== null;
  const screen = `${ctx.base}${FAILED_JOBS_SCREEN}`;
  res.type('html').send(
    page(
      { ...options, principal, notice: noticeOf(req.query) },
      html`${queueFilter(screen, query)}
<p>${list.total} failed ${list.total === 1 ? 'job' : 'jobs'}${query.queue === undefined ? ' in every queue' : ` in ${query.queue}`}.</p>
${jobTable(ctx, list.jobs, canRetry)}${pager(screen, query, list.total)}`,
    ),
  );
}

function confirmPage(ctx: ConsoleContext, res: Response, job: { queue: string; id: string }, error: string | null) {
  return page(
    {
      base: ctx.base,
      title: `Retry job ${job.id}?`,
      principal: adminPrincipal(res),
      current: FAILED_JOBS_SCREEN,
      error,
    },
    html`<p>Job <code>${job.id}</code> of queue <code>${job.queue}</code> goes back to waiting with its attempts reset, and a worker runs it again.</p>
<form method="post" action="${ctx.base}${FAILED_JOBS_SCREEN}/retry">
<input type="hidden" name="queue" value="${job.queue}">
<input type="hidden" name="id" value="${job.id}">
<input type="hidden" name="confirm" value="retry">
${reasonField({ id: 'retry-reason', required: true })}
<p><button type="submit" class="danger">Retry the job</button> <a href="${ctx.base}${FAILED_JOBS_SCREEN}" data-dismiss>Cancel</a></p>
</form>`,
  );
}

/**
 * The failed jobs screen (its list route's ACL), the retry confirmation and its POST (the retry
 * route's ACL, 403 otherwise), and the link on to the queue dashboard (the dashboard's ACL).
 */
export function failedJobScreens(ctx: ConsoleContext): Router {
  const router = Router();
  const back = html`<p><a href="${ctx.base}${FAILED_JOBS_SCREEN}">Back to the failed jobs</a></p>`;
  router.get(FAILED_JOBS_SCREEN, (req, res) => listPage(ctx, req, res));
  router.use(`${FAILED_JOBS_SCREEN}/retry`, requireAnyAcl(RETRY_ACLS));

  router.get(`${FAILED_JOBS_SCREEN}/retry`, (req, res) => {
    const job = retryForm.pick({ queue: true, id: true }).safeParse(req.query);
    if (!job.success) return res.redirect(303, `${ctx.base}${FAILED_JOBS_SCREEN}`);
    res.type('html').send(confirmPage(ctx, res, job.data, null));
  });

  router.post(`${FAILED_JOBS_SCREEN}/retry`, async (req, res) => {
    const form = parseForm(retryForm, req);
    if (!form.ok) return res.redirect(303, `${ctx.base}${FAILED_JOBS_SCREEN}`);
    const { queue, id, confirm } = form.value;
    const reason = form.value.reason?.trim() ?? '';
    // Only the confirmation page sends `confirm`, and it asks for the reason.
    if (confirm !== 'retry' || reason === '') {
      const error = confirm === 'retry' ? 'Give a reason.' : null;
      res
        .status(error === null ? 200 : 400)
        .type('html')
        .send(confirmPage(ctx, res, { queue, id }, error));
      return;
    }
    const answer = await ctx.api(req, res, {
      method: 'POST',
      path: RETRY_API,
      body: { jobs: [{ queue, id }] },
      reason,
    });
    const options = { base: ctx.base, title: TITLE, current: FAILED_JOBS_SCREEN };
    if (answer.status !== 200) return sendRefusal(res, options, answer, back);
    const result = answer.body as JobRetryResponse;
    if (result.retried.length > 0) return res.redirect(303, `${ctx.base}${FAILED_JOBS_SCREEN}?done=job-retried`);
    const error = RETRY_ERRORS[result.errors[0]?.error ?? 'UNKNOWN_JOB'];
    res
      .status(409)
      .type('html')
      .send(page({ ...options, principal: adminPrincipal(res), error }, back));
  });

  // The queue dashboard has its own sign-in; this only takes the operator there.
  router.get(QUEUE_DASHBOARD_LINK, requireAnyAcl(DASHBOARD_ACLS), (_req, res) => {
    res.redirect(303, `${publicDashboardPath(ctx.deps.config)}/`);
  });
  return router;
}
