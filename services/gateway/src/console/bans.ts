import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { ACL, LIMITS, type AclName } from '@switchboard/contracts';
import { adminPrincipal, grantedAcl } from '../admin-auth/index.ts';
import { apiErrorText, field, parseForm } from './form.ts';
import { html, timeCell, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { page } from './layout.ts';
import { noticeOf } from './notices.ts';

interface BanKind {
  title: string;
  /** The body field of one value, and of many (`ip` / `ips`). */
  single: string;
  plural: string;
  noun: string;
  acls: { check: AclName; add: AclName; remove: AclName };
}

const KINDS = {
  email: {
    title: 'Email bans',
    single: 'email',
    plural: 'emails',
    noun: 'email address',
    acls: { check: ACL.banEmailCheck, add: ACL.banEmailAdd, remove: ACL.banEmailRemove },
  },
  ip: {
    title: 'IP bans',
    single: 'ip',
    plural: 'ips',
    noun: 'address or CIDR range',
    acls: { check: ACL.banIpCheck, add: ACL.banIpAdd, remove: ACL.banIpRemove },
  },
  phone: {
    title: 'Phone bans',
    single: 'phone',
    plural: 'phones',
    noun: 'phone number',
    acls: { check: ACL.banPhoneCheck, add: ACL.banPhoneAdd, remove: ACL.banPhoneRemove },
  },
} as const satisfies Record<string, BanKind>;
type KindName = keyof typeof KINDS;

/** Expiry choices, in seconds ('never': no expiry). */
const EXPIRIES: ReadonlyArray<{ value: string; label: string }> = [
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '1 day' },
  { value: '604800', label: '7 days' },
  { value: '2592000', label: '30 days' },
  { value: '7776000', label: '90 days' },
  { value: '31536000', label: '1 year' },
  { value: 'never', label: 'Never' },
];
const DEFAULT_EXPIRY = '2592000';
const PAGE_SIZE = 50;

interface ListedBan {
  reason: string | null;
  expires_at: string | null;
  created_at: string;
  reverse_dns?: string | null;
  [field: string]: unknown;
}

const listQuery = z.object({
  cursor: z.string().max(512).optional(),
  limit: z.coerce.number().int().min(LIMITS.bans.list.min).max(LIMITS.bans.list.max).catch(PAGE_SIZE),
  check: z.string().max(512).optional(),
  /** Search: the list route's `contains`. */
  q: z
    .string()
    .max(LIMITS.bans.containsMaxLength)
    .transform((text) => text.trim() || undefined)
    .optional()
    .catch(undefined),
});
type ListQuery = z.output<typeof listQuery>;

const addForm = z.object({
  values: z.preprocess((value) => (Array.isArray(value) ? value[0] : value), z.string().max(64 * 1024)),
  reason: field,
  expires: field,
  retroactive: field,
  force: field,
  confirm: field,
});
type AddForm = z.output<typeof addForm>;

const removeForm = z.object({ value: field, reason: field, confirm: field });

/** One value a line (commas too): what the add form's text area holds. */
function valuesOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\n,]/)
        .map((value) => value.trim())
        .filter((value) => value !== ''),
    ),
  ];
}

function expiryLabel(value: string | undefined): string {
  return EXPIRIES.find((choice) => choice.value === value)?.label ?? 'Never';
}

function addFormHtml(ctx: ConsoleContext, name: KindName, values: Partial<AddForm>): Html {
  const kind: BanKind = KINDS[name];
  const chosen = values.expires ?? DEFAULT_EXPIRY;
  const options = EXPIRIES.map(
    (choice) =>
      html`<option value="${choice.value}"${choice.value === chosen ? html` selected` : ''}>${choice.label}</option>`,
  );
  const ipOptions =
    name === 'ip'
      ? html`<div class="check"><input type="checkbox" id="retroactive" name="retroactive" value="on"${values.retroactive ? html` checked` : ''}><label for="retroactive">Also sign out users last seen inside (revokes their tokens)</label></div>
<div class="check"><input type="checkbox" id="force" name="force" value="on"${values.force ? html` checked` : ''}><label for="force">Allow a range wider than this gateway bans by default</label></div>`
      : html``;
  return html`<form method="post" action="${ctx.base}/bans/${name}/add">
<label for="values">${kind.noun[0]!.toUpperCase()}${kind.noun.slice(1)}, one a line</label>
<textarea id="values" name="values" rows="3" required>${values.values ?? ''}</textarea>
<label for="reason">Reason (kept with the ban and recorded in the audit log)</label>
<input type="text" id="reason" name="reason" maxlength="${LIMITS.bans.reasonMaxLength}" required value="${values.reason ?? ''}">
<label for="expires">Expires after</label>
<select id="expires" name="expires">${options}</select>
${ipOptions}
<p><button type="submit">Review the ban</button></p>
</form>`;
}

function banTable(ctx: ConsoleContext, name: KindName, bans: ListedBan[], canRemove: boolean, search?: string): Html {
  const kind: BanKind = KINDS[name];
  if (bans.length === 0)
    return html`<p>${search === undefined ? 'No bans on this page.' : `No ban contains “${search}”.`}</p>`;
  const rows = bans.map((ban) => {
    const value = String(ban[kind.single]);
    const remove = `${ctx.base}/bans/${name}/remove?value=${encodeURIComponent(value)}`;
    return html`<tr>
<td><code>${value}</code></td>
${name === 'ip' ? html`<td>${ban.reverse_dns ?? 'No name'}</td>` : ''}
<td>${ban.reason ?? 'No reason given'}</td>
<td>${timeCell(ban.created_at, '')}</td>
<td>${timeCell(ban.expires_at, 'Never expires')}</td>
${canRemove ? html`<td><a href="${remove}" aria-label="Remove the ban on ${value}">Remove…</a></td>` : ''}
</tr>`;
  });
  return html`<table><caption>${search === undefined ? 'Bans in force' : `Bans containing “${search}”`}, newest first</caption><thead><tr><th scope="col">${kind.noun}</th>${name === 'ip' ? html`<th scope="col">Reverse DNS</th>` : ''}<th scope="col">Reason</th><th scope="col">Added</th><th scope="col">Expires</th>${canRemove ? html`<th scope="col">Action</th>` : ''}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** First page and Next page, keeping the page size and the search. */
function pager(screen: string, query: ListQuery, nextCursor: string | null): Html {
  const link = (cursor: string | null) => {
    const params = new URLSearchParams({ limit: String(query.limit) });
    if (query.q !== undefined) params.set('q', query.q);
    if (cursor !== null) params.set('cursor', cursor);
    return `${screen}?${params}`;
  };
  const first = query.cursor === undefined ? '' : html`<a href="${link(null)}">First page</a>`;
  const next =
    nextCursor === null ? html`<span>Last page.</span>` : html`<a href="${link(nextCursor)}" rel="next">Next page</a>`;
  return html`<nav class="pager" aria-label="Pages">${first}${next}</nav>`;
}

function searchForm(screen: string, query: ListQuery): Html {
  return html`<form method="get" action="${screen}" role="search">
<label for="q">Search the list (any part of the value)</label>
<input type="text" id="q" name="q" value="${query.q ?? ''}">
<input type="hidden" name="limit" value="${query.limit}">
<button type="submit">Search</button>
${query.q === undefined ? '' : html` <a href="${screen}">Show all bans</a>`}
</form>`;
}

function checkResult(value: string, status: number, body: unknown): Html {
  if (status !== 200) return html`<p class="error" role="alert">Error: ${apiErrorText(body, status)}</p>`;
  const result = body as { banned: boolean; matched?: string; reason?: string | null; expires_at?: string | null };
  if (!result.banned) return html`<p role="status">Not banned: <code>${value}</code> matches no ban in force.</p>`;
  return html`<p role="status">Banned: <code>${value}</code> is covered by the ban on <code>${result.matched}</code>. Reason: ${result.reason ?? 'none given'}. Expires: ${timeCell(result.expires_at ?? null, 'never')}.</p>`;
}

async function listPage(ctx: ConsoleContext, name: KindName, req: Request, res: Response): Promise<void> {
  const kind: BanKind = KINDS[name];
  const principal = adminPrincipal(res);
  const query = listQuery.parse({ ...req.query, limit: req.query['limit'] ?? PAGE_SIZE });
  const screen = `${ctx.base}/bans/${name}`;
  let checked: Html = html``;
  if (query.check !== undefined && query.check.trim() !== '') {
    const value = query.check.trim();
    const answer = await ctx.api(req, res, {
      method: 'POST',
      path: `/v1/admin/bans/${name}/check`,
      body: { [kind.single]: value },
    });
    checked = checkResult(value, answer.status, answer.body);
  }
  const answer = await ctx.api(req, res, {
    method: 'POST',
    path: `/v1/admin/bans/${name}/list`,
    body: {
      limit: query.limit,
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
      ...(query.q === undefined ? {} : { contains: query.q }),
    },
  });
  const title = kind.title;
  const common = { base: ctx.base, title, principal, current: `/bans/${name}`, notice: noticeOf(req.query) };
  if (answer.status !== 200) {
    res
      .status(answer.status)
      .type('html')
      .send(page({ ...common, error: apiErrorText(answer.body, answer.status) }, html``));
    return;
  }
  const list = answer.body as { bans: ListedBan[]; next_cursor: string | null };
  const canAdd = grantedAcl(principal, [kind.acls.add]) !== null;
  const canRemove = grantedAcl(principal, [kind.acls.remove]) !== null;
  res.type('html').send(
    page(
      common,
      html`<section aria-labelledby="check-heading"><h2 id="check-heading">Check a value</h2>
<form method="get" action="${screen}" role="search">
<label for="check">${kind.noun[0]!.toUpperCase()}${kind.noun.slice(1)}</label>
<input type="text" id="check" name="check" value="${query.check ?? ''}">
<button type="submit">Check</button>
</form>${checked}</section>
${canAdd ? html`<section aria-labelledby="add-heading"><h2 id="add-heading">Add a ban</h2>${addFormHtml(ctx, name, {})}</section>` : ''}
<section aria-labelledby="list-heading"><h2 id="list-heading">Bans</h2>
${searchForm(screen, query)}${banTable(ctx, name, list.bans, canRemove, query.q)}${pager(screen, query, list.next_cursor)}</section>`,
    ),
  );
}

function addBody(name: KindName, form: AddForm, values: string[]): Record<string, unknown> {
  const kind: BanKind = KINDS[name];
  const body: Record<string, unknown> = { [kind.plural]: values, reason: form.reason ?? '' };
  if (form.expires !== undefined && form.expires !== 'never') body['expires_in_seconds'] = Number(form.expires);
  if (name === 'ip') {
    body['retroactive'] = form.retroactive === 'on';
    body['force'] = form.force === 'on';
  }
  return body;
}

/** The add form's second step: what will happen, the same fields hidden, and the Ban button. */
function reviewPage(ctx: ConsoleContext, name: KindName, res: Response, form: AddForm, values: string[]): string {
  const kind: BanKind = KINDS[name];
  const hidden = (field: string, value: string | undefined) =>
    value === undefined ? '' : html`<input type="hidden" name="${field}" value="${value}">`;
  return page(
    {
      base: ctx.base,
      title: `Ban ${values.length === 1 ? `this ${kind.noun}` : `these ${values.length} values`}?`,
      principal: adminPrincipal(res),
      current: `/bans/${name}`,
    },
    html`<ul>${values.map((value) => html`<li><code>${value}</code></li>`)}</ul>
<p>Reason: ${form.reason}. Expires after: ${expiryLabel(form.expires)}.${form.retroactive === 'on' ? ' Users last seen inside are signed out.' : ''}${form.force === 'on' ? ' Wide ranges allowed.' : ''}</p>
<form method="post" action="${ctx.base}/bans/${name}/add">
${hidden('values', form.values)}${hidden('reason', form.reason)}${hidden('expires', form.expires)}${hidden('retroactive', form.retroactive)}${hidden('force', form.force)}
<input type="hidden" name="confirm" value="ban">
<p><button type="submit" class="danger">Ban</button> <a href="${ctx.base}/bans/${name}">Cancel</a></p>
</form>`,
  );
}

function addFailedPage(
  ctx: ConsoleContext,
  name: KindName,
  res: Response,
  form: Partial<AddForm>,
  error: string,
): string {
  return page(
    {
      base: ctx.base,
      title: `Add a ban: ${KINDS[name].title}`,
      principal: adminPrincipal(res),
      current: `/bans/${name}`,
      error,
    },
    addFormHtml(ctx, name, form),
  );
}

function removeConfirmPage(ctx: ConsoleContext, name: KindName, res: Response, value: string): string {
  const kind: BanKind = KINDS[name];
  return page(
    { base: ctx.base, title: `Remove the ban on ${value}?`, principal: adminPrincipal(res), current: `/bans/${name}` },
    html`<p>The ${kind.noun} <code>${value}</code> is no longer banned once you confirm.</p>
<form method="post" action="${ctx.base}/bans/${name}/remove">
<input type="hidden" name="value" value="${value}">
<input type="hidden" name="confirm" value="remove">
<label for="reason">Reason (recorded in the audit log)</label>
<input type="text" id="reason" name="reason" maxlength="512" required>
<p><button type="submit" class="danger">Remove the ban</button> <a href="${ctx.base}/bans/${name}">Cancel</a></p>
</form>`,
  );
}

/**
 * The three ban screens: check, add (review, then confirm), list page by page, remove with a
 * confirmation step. Values travel in form fields and query strings, escaped, never in script.
 */
export function banScreens(ctx: ConsoleContext): Router {
  const router = Router();
  for (const name of Object.keys(KINDS) as KindName[]) {
    const kind: BanKind = KINDS[name];
    const screen = `/bans/${name}`;
    router.get(screen, (req, res) => listPage(ctx, name, req, res));

    router.post(`${screen}/add`, async (req, res) => {
      const form = parseForm(addForm, req);
      const values = form.ok ? valuesOf(form.value.values) : [];
      if (!form.ok || values.length === 0 || !form.value.reason) {
        const error = 'Give at least one value and a reason.';
        res
          .status(400)
          .type('html')
          .send(addFailedPage(ctx, name, res, form.ok ? form.value : {}, error));
        return;
      }
      if (form.value.confirm !== 'ban') {
        res.type('html').send(reviewPage(ctx, name, res, form.value, values));
        return;
      }
      const answer = await ctx.api(req, res, {
        method: 'POST',
        path: `/v1/admin/bans/${name}/add`,
        body: addBody(name, form.value, values),
        reason: form.value.reason,
      });
      if (answer.status === 204) return res.redirect(303, `${ctx.base}${screen}?done=ban-added`);
      res
        .status(answer.status)
        .type('html')
        .send(addFailedPage(ctx, name, res, form.value, apiErrorText(answer.body, answer.status)));
    });

    router.get(`${screen}/remove`, (req, res) => {
      const value = typeof req.query['value'] === 'string' ? req.query['value'] : '';
      if (value === '') return res.redirect(303, `${ctx.base}${screen}`);
      res.type('html').send(removeConfirmPage(ctx, name, res, value));
    });

    router.post(`${screen}/remove`, async (req, res) => {
      const form = parseForm(removeForm, req);
      const value = form.ok ? form.value.value : undefined;
      if (!form.ok || value === undefined) return res.redirect(303, `${ctx.base}${screen}`);
      // Only the confirmation page sends `confirm` (and asks for the reason).
      if (form.value.confirm !== 'remove' || !form.value.reason) {
        res.type('html').send(removeConfirmPage(ctx, name, res, value));
        return;
      }
      const answer = await ctx.api(req, res, {
        method: 'POST',
        path: `/v1/admin/bans/${name}/remove`,
        body: { [kind.single]: value },
        reason: form.value.reason,
      });
      if (answer.status === 204) return res.redirect(303, `${ctx.base}${screen}?done=ban-removed`);
      res
        .status(answer.status)
        .type('html')
        .send(
          page(
            {
              base: ctx.base,
              title: kind.title,
              principal: adminPrincipal(res),
              current: screen,
              error: apiErrorText(answer.body, answer.status),
            },
            html`<p><a href="${ctx.base}${screen}">Back to the list</a></p>`,
          ),
        );
    });
  }
  return router;
}
