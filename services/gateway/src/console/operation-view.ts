// What the console shows of an admin operation (asset purge, bulk add) while and after it runs:
// its status in words, a marker the page's script polls, and the status route that feeds it.
import { Router, type Request, type Response } from 'express';
import { OPERATION_STATUSES, type OperationStatus } from '@switchboard/contracts';
import type { AdminAnswer } from './admin-api.ts';
import { apiErrorText } from './form.ts';
import { html, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';

const STATUS_LABELS: Record<OperationStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Finished',
  failed: 'Failed',
};

export const operationStatusLabel = (status: OperationStatus): string => STATUS_LABELS[status];

export const isLiveOperation = (status: string): boolean => status === 'queued' || status === 'running';

/** The body of an operation's status route, as the API answers it. */
export interface OperationAnswer {
  status: OperationStatus;
  error?: string | null;
}

export function isOperationAnswer(body: unknown): body is OperationAnswer {
  const status = (body as { status?: unknown } | null)?.status;
  return typeof status === 'string' && (OPERATION_STATUSES as readonly string[]).includes(status);
}

/**
 * The operation's status in words; while it is live, the page's script polls `statusUrl` and
 * reloads the page once the operation is done, and a refresh link does the same without script.
 */
export function operationStatus(answer: OperationAnswer, pageUrl: string, statusUrl: string): Html {
  const live = isLiveOperation(answer.status);
  return html`<p>Status: <strong role="status" aria-live="polite"${live ? html` data-operation-status-url="${statusUrl}"` : ''}>${operationStatusLabel(answer.status)}</strong>${answer.status === 'failed' ? html` — ${answer.error ?? 'No reason recorded'}` : ''}</p>
${live ? html`<p><a href="${pageUrl}">Refresh</a> <span class="hint">(with script on, this page updates by itself)</span></p>` : ''}`;
}

/** The `:id` of an operation's console path, when it is one (digits only, so it stays one path segment). */
export function operationIdOf(req: Request): string | null {
  const id = req.params['id'];
  return typeof id === 'string' && /^[0-9]{1,20}$/.test(id) ? id : null;
}

/**
 * GET `${pagePath}/:id/status`: the operation's status as JSON for the page's script, read
 * through the API's status route at `apiPath(id)`, or the API's refusal.
 */
export function operationStatusRoute(ctx: ConsoleContext, pagePath: string, apiPath: (id: string) => string): Router {
  const router = Router();
  router.get(`${pagePath}/:id/status`, async (req: Request, res: Response) => {
    const id = operationIdOf(req);
    if (id === null) return res.status(404).json({ error: 'No such operation.' });
    const answer: AdminAnswer = await ctx.api(req, res, { method: 'GET', path: apiPath(id) });
    if (answer.status !== 200 || !isOperationAnswer(answer.body))
      return res
        .status(answer.status === 200 ? 502 : answer.status)
        .json({ error: apiErrorText(answer.body, answer.status) });
    res.json({ status: answer.body.status, status_label: operationStatusLabel(answer.body.status) });
  });
  return router;
}
