import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  ACL,
  ARCHIVE_STATUSES,
  ARCHIVE_SUBJECT_TYPES,
  type ArchiveResponse,
  type ArchiveSubjectType,
} from '@switchboard/contracts';
import { adminPrincipal, grantedAcl, type AdminPrincipal } from '../admin-auth/index.ts';
import { archiveTable, filterForm, triggerForm, type ArchiveFilter } from './archive-pages.ts';
import { archiveView } from './archive-view.ts';
import { apiErrorText, field, parseForm } from './form.ts';
import { html, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { page, sendRefusal } from './layout.ts';
import { noticeOf } from './notices.ts';

const SCREEN = '/archives';
const PAGE_SIZE = 50;
const TRIGGER_ACL = { user: ACL.archiveTriggerUser, guild: ACL.archiveTriggerGuild } as const;

const first = (value: unknown) => (Array.isArray(value) ? value[0] : value === '' ? undefined : value);
const snowflake = z
  .string()
  .trim()
  .regex(/^[0-9]{1,20}$/, 'An id is digits only.');

const listQuery = z.object({
  subject_type: z.preprocess(
    first,
    z
      .enum([...ARCHIVE_SUBJECT_TYPES, 'all'])
      .optional()
      .catch(undefined),
  ),
  subject_id: field,
  status: z.preprocess(first, z.enum(ARCHIVE_STATUSES).optional().catch(undefined)),
  mine: field,
  requested_by: field,
  before: z.preprocess(first, snowflake.optional().catch(undefined)),
});

const triggerBody = z.object({
  subject_type: z.preprocess(first, z.enum(ARCHIVE_SUBJECT_TYPES, { error: 'Choose a user or a guild.' })),
  subject_id: z.preprocess(first, z.string({ error: 'Give the id.' }).pipe(snowflake)),
  reason: z.preprocess(first, z.string({ error: 'Give a reason.' }).trim().min(1, 'Give a reason.').max(512)),
});

const archiveParams = z.object({
  subjectType: z.enum(ARCHIVE_SUBJECT_TYPES),
  subjectId: snowflake,
  archiveId: snowflake,
});

/** The subject types the operator may trigger exports of. */
function triggerTypes(principal: AdminPrincipal): ArchiveSubjectType[] {
  return ARCHIVE_SUBJECT_TYPES.filter((type) => grantedAcl(principal, [TRIGGER_ACL[type]]) !== null);
}

/** What the list may show: everything with archive:view_all, else the types it may trigger. */
function viewableTypes(principal: AdminPrincipal): Array<ArchiveSubjectType | 'all'> {
  return grantedAcl(principal, [ACL.archiveViewAll]) !== null
    ? ['all', ...ARCHIVE_SUBJECT_TYPES]
    : triggerTypes(principal);
}

async function listPage(
  ctx: ConsoleContext,
  req: Request,
  res: Response,
  outcome: { status?: number; error?: string; triggerValues?: Record<string, string> } = {},
): Promise<void> {
  const principal = adminPrincipal(res);
  const query = listQuery.parse(req.query);
  const types = viewableTypes(principal);
  const filter: ArchiveFilter = {
    // Without archive:view_all the API refuses `all`: start on a type the operator may see.
    subject_type: query.subject_type ?? types[0] ?? 'all',
    subject_id: query.subject_id?.trim() || undefined,
    status: query.status,
    mine: query.mine === 'on',
    requested_by: query.requested_by?.trim() || undefined,
  };
  const screen = `${ctx.base}${SCREEN}`;
  const answer = await ctx.api(req, res, {
    method: 'POST',
    path: '/v1/admin/archives/list',
    body: {
      subject_type: filter.subject_type,
      limit: PAGE_SIZE,
      include_expired: filter.status === 'expired',
      ...(filter.subject_id === undefined ? {} : { subject_id: filter.subject_id }),
      ...(filter.mine
        ? { requested_by: principal.adminUserId }
        : filter.requested_by === undefined
          ? {}
          : { requested_by: filter.requested_by }),
      ...(query.before === undefined ? {} : { before: query.before }),
    },
  });
  const common = {
    base: ctx.base,
    title: 'Archives',
    principal,
    current: SCREEN,
    notice: noticeOf(req.query),
    error: outcome.error ?? null,
  };
  const canTrigger = triggerTypes(principal);
  const trigger =
    canTrigger.length === 0
      ? html``
      : html`<section aria-labelledby="trigger-heading"><h2 id="trigger-heading">Export a user or a guild</h2>${triggerForm(screen, canTrigger, outcome.triggerValues ?? {})}</section>`;
  let list: Html;
  let status = outcome.status ?? 200;
  if (answer.status !== 200) {
    status = outcome.status ?? answer.status;
    list = html`<p class="error" role="alert">Error: ${apiErrorText(answer.body, answer.status)}</p>`;
  } else {
    const body = answer.body as { archives: ArchiveResponse[]; next_cursor: string | null };
    // The API filters by subject and requester; status is filtered here, within the page.
    const shown = body.archives.filter((archive) => filter.status === undefined || archive.status === filter.status);
    const params = new URLSearchParams();
    params.set('subject_type', filter.subject_type);
    if (filter.subject_id !== undefined) params.set('subject_id', filter.subject_id);
    if (filter.status !== undefined) params.set('status', filter.status);
    if (filter.mine) params.set('mine', 'on');
    if (filter.requested_by !== undefined) params.set('requested_by', filter.requested_by);
    const refresh = `${screen}?${params}${query.before === undefined ? '' : `&before=${query.before}`}`;
    const next =
      body.next_cursor === null
        ? html`<span>Last page.</span>`
        : html`<a href="${screen}?${params}&before=${body.next_cursor}" rel="next">Older archives</a>`;
    list = html`${filterForm(screen, filter, types)}
${filter.status === undefined ? '' : html`<p class="hint">The status filter applies to each page of ${PAGE_SIZE} archives.</p>`}
<p><a href="${refresh}" id="refresh">Refresh the list</a> <span class="hint">(with script on, running exports update by themselves)</span></p>
${archiveTable(ctx.base, shown, principal.adminUserId)}
<nav class="pager" aria-label="Pages">${query.before === undefined ? '' : html`<a href="${screen}?${params}">Newest archives</a>`}${next}</nav>`;
  }
  res
    .status(status)
    .type('html')
    .send(
      page(
        common,
        html`${trigger}<section aria-labelledby="list-heading"><h2 id="list-heading">Archives</h2>${list}</section>`,
      ),
    );
}

/**
 * The archive screen: trigger an export (with a reason, audited by the API), list every archive
 * the operator may see, filtered, with status, progress, size, expiry and failure reason; a
 * status route the page's script polls; downloads through the API's short-lived link.
 */
export function archiveScreens(ctx: ConsoleContext): Router {
  const router = Router();
  router.get(SCREEN, (req, res) => listPage(ctx, req, res));

  router.post(`${SCREEN}/trigger`, async (req, res) => {
    const form = parseForm(triggerBody, req);
    const values = Object.fromEntries(
      ['subject_type', 'subject_id', 'reason'].map((name) => [name, String(first(req.body?.[name]) ?? '')]),
    );
    if (!form.ok) {
      await listPage(ctx, req, res, {
        status: 400,
        error: Object.values(form.errors).join(' '),
        triggerValues: values,
      });
      return;
    }
    const { subject_type: type, subject_id: id, reason } = form.value;
    const answer = await ctx.api(req, res, {
      method: 'POST',
      path: `/v1/admin/archives/${type}`,
      body: type === 'user' ? { user_id: id } : { guild_id: id },
      reason,
    });
    if (answer.status !== 200) {
      await listPage(ctx, req, res, {
        status: answer.status,
        error: apiErrorText(answer.body, answer.status),
        triggerValues: values,
      });
      return;
    }
    const params = new URLSearchParams({ done: 'archive-queued', subject_type: type, subject_id: id });
    res.redirect(303, `${ctx.base}${SCREEN}?${params}`);
  });

  const archiveCall = (req: Request) => {
    const params = archiveParams.safeParse(req.params);
    if (!params.success) return null;
    const { subjectType, subjectId, archiveId } = params.data;
    return `/v1/admin/archives/${subjectType}/${subjectId}/${archiveId}`;
  };

  // JSON for the page's script: the row's fields as text, or the API's refusal.
  router.get(`${SCREEN}/:subjectType/:subjectId/:archiveId/status`, async (req, res) => {
    const path = archiveCall(req);
    if (path === null) return res.status(404).json({ error: 'No such archive.' });
    const answer = await ctx.api(req, res, { method: 'GET', path });
    const archive = (answer.body as { archive?: ArchiveResponse | null } | null)?.archive;
    if (answer.status !== 200)
      return res.status(answer.status).json({ error: apiErrorText(answer.body, answer.status) });
    if (!archive) return res.status(404).json({ error: 'No such archive.' });
    res.json(archiveView(ctx.base, archive));
  });

  // The API mints a short-lived link (and audits the download); the browser is sent to it.
  router.get(`${SCREEN}/:subjectType/:subjectId/:archiveId/download`, async (req, res) => {
    const path = archiveCall(req);
    const answer = path === null ? null : await ctx.api(req, res, { method: 'GET', path: `${path}/download` });
    if (answer?.status === 200) return res.redirect(303, (answer.body as { downloadUrl: string }).downloadUrl);
    sendRefusal(
      res,
      { base: ctx.base, title: 'Archives', current: SCREEN },
      answer ?? { status: 404, body: { message: 'No such archive.' } },
      html`<p><a href="${ctx.base}${SCREEN}">Back to the archives</a></p>`,
    );
  });
  return router;
}
