import { Router, type Request, type Response } from 'express';
import { ACL, LIMITS, type AuditLogEntry } from '@switchboard/contracts';
import { adminPrincipal, grantedAcl } from '../admin-auth/index.ts';
import type { AdminAnswer } from './admin-api.ts';
import { auditCall, auditQuery, filterParams, type AuditQuery } from './audit-query.ts';
import { auditPager, auditTable, filterForm, rangeText, type KnownNames } from './audit-pages.ts';
import { csvRow } from './csv.ts';
import { html, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { page, sendRefusal } from './layout.ts';

const SCREEN = '/audit';

/** An audit answer. `total_is_exact: false` marks an estimated total (absent: exact). */
interface AuditPage {
  logs: AuditLogEntry[];
  total: number;
  total_is_exact?: boolean;
}

/** Names for ids on the page: the operator, and its own keys when it may list them. */
async function knownNames(ctx: ConsoleContext, req: Request, res: Response): Promise<KnownNames> {
  const principal = adminPrincipal(res);
  const keys = new Map<string, string>();
  if (grantedAcl(principal, [ACL.apiKeyManage]) !== null) {
    const answer = await ctx.api(req, res, { method: 'GET', path: '/v1/admin/api-keys' });
    if (answer.status === 200)
      for (const key of answer.body as Array<{ key_id: string; name: string }>) keys.set(key.key_id, key.name);
  }
  return { adminUserId: principal.adminUserId, keys };
}

/** The audit screen saying why the API refused, above `body`. */
function refusedPage(ctx: ConsoleContext, res: Response, answer: AdminAnswer, body: Html): void {
  sendRefusal(res, { base: ctx.base, title: 'Audit log', current: SCREEN }, answer, body);
}

async function auditPage(ctx: ConsoleContext, req: Request, res: Response): Promise<void> {
  const query = auditQuery.parse(req.query);
  const screen = `${ctx.base}${SCREEN}`;
  const answer = await ctx.api(req, res, auditCall(query, query));
  const common = { base: ctx.base, title: 'Audit log', principal: adminPrincipal(res), current: SCREEN };
  // A refused filter keeps the form, so it can be corrected; a missing ACL is just the error.
  if (answer.status !== 200)
    return refusedPage(ctx, res, answer, answer.status === 403 ? html`` : filterForm(screen, query));
  const result = answer.body as AuditPage;
  const exact = result.total_is_exact !== false;
  const names = await knownNames(ctx, req, res);
  const range = rangeText(query.offset, result.logs.length, result.total, exact);
  const exportLink = `${screen}/export.csv?${filterParams(query)}`;
  res.type('html').send(
    page(
      common,
      html`<section aria-labelledby="filter-heading"><h2 id="filter-heading">Filter</h2>${filterForm(screen, query)}</section>
<section aria-labelledby="entries-heading"><h2 id="entries-heading">Entries</h2>
<p role="status">${range}. <a href="${exportLink}" download>Download this filter's entries as CSV</a></p>
${auditTable(result.logs, names, range)}${auditPager(screen, query, result.logs.length, result.total, exact)}</section>`,
    ),
  );
}

const CSV_HEADER = [
  'log_id',
  'created_at',
  'admin_user_id',
  'api_key_id',
  'action',
  'target_type',
  'target_id',
  'reason',
  'metadata',
];

function csvRecord(entry: AuditLogEntry): string {
  return csvRow([
    entry.log_id,
    entry.created_at,
    entry.admin_user_id,
    entry.api_key_id,
    entry.action,
    entry.target_type,
    entry.target_id,
    entry.audit_log_reason,
    JSON.stringify(entry.metadata),
  ]);
}

/**
 * GET /audit/export.csv: every entry of the current filter, page by page through the admin API
 * (so its ACL, rate limit and validation apply to each page), written as it arrives. The export
 * ends at the instant it started (`to` pinned to now when open-ended), so entries written
 * meanwhile cannot shift the pages under it. A failure before the first byte is an error page;
 * after it, the connection is cut, so a partial file never passes for a whole one.
 */
async function exportCsv(ctx: ConsoleContext, req: Request, res: Response): Promise<void> {
  const parsed = auditQuery.parse(req.query);
  const query: AuditQuery = { ...parsed, to: parsed.to ?? new Date().toISOString() };
  const limit = LIMITS.auditLogs.list.max;
  let offset = 0;
  let answer = await ctx.api(req, res, auditCall(query, { offset, limit }));
  if (answer.status !== 200) return refusedPage(ctx, res, answer, html``);
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', 'attachment; filename="audit-log.csv"');
  res.write(csvRow(CSV_HEADER));
  for (;;) {
    const logs = (answer.body as AuditPage).logs;
    for (const entry of logs) res.write(csvRecord(entry));
    if (logs.length < limit) break;
    offset += limit;
    answer = await ctx.api(req, res, auditCall(query, { offset, limit }));
    if (answer.status !== 200) {
      res.destroy();
      return;
    }
  }
  res.end();
}

/** The audit screen: every filter of the API, search with relevance, expandable rows, CSV export. */
export function auditScreens(ctx: ConsoleContext): Router {
  const router = Router();
  router.get(SCREEN, (req, res) => auditPage(ctx, req, res));
  router.get(`${SCREEN}/export.csv`, (req, res) => exportCsv(ctx, req, res));
  return router;
}
