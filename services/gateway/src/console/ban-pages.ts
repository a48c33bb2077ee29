// The ban screens' markup: forms, table, pager, and the review and confirmation pages.
import type { Response } from 'express';
import { LIMITS } from '@switchboard/contracts';
import { adminPrincipal } from '../admin-auth/index.ts';
import {
  DEFAULT_EXPIRY,
  EXPIRIES,
  expiryLabel,
  FIRST_PAGE,
  KINDS,
  MAX_BACK,
  type AddForm,
  type BanKind,
  type KindName,
  type ListedBan,
  type ListQuery,
} from './ban-kinds.ts';
import { apiErrorText } from './form.ts';
import { html, timeCell, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { page } from './layout.ts';
import { reasonField } from './reason-field.ts';

export function addFormHtml(ctx: ConsoleContext, name: KindName, values: Partial<AddForm>): Html {
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
  return html`<form method="post" action="${ctx.base}/bans/${name}/add" data-confirm>
<label for="values">${kind.noun[0]!.toUpperCase()}${kind.noun.slice(1)}, one a line</label>
<textarea id="values" name="values" rows="3" required>${values.values ?? ''}</textarea>
${reasonField({
  id: 'reason',
  required: true,
  value: values.reason,
  label: 'Reason (kept with the ban and recorded in the audit log)',
  maxLength: LIMITS.bans.reasonMaxLength,
})}
<label for="expires">Expires after</label>
<select id="expires" name="expires">${options}</select>
${ipOptions}
<p><button type="submit">Review the ban</button></p>
</form>`;
}

export function banTable(
  ctx: ConsoleContext,
  name: KindName,
  bans: ListedBan[],
  canRemove: boolean,
  search?: string,
): Html {
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
${canRemove ? html`<td><a href="${remove}" data-confirm aria-label="Remove the ban on ${value}">Remove…</a></td>` : ''}
</tr>`;
  });
  return html`<table><caption>${search === undefined ? 'Bans in force' : `Bans containing “${search}”`}, newest first</caption><thead><tr><th scope="col">${kind.noun}</th>${name === 'ip' ? html`<th scope="col">Reverse DNS</th>` : ''}<th scope="col">Reason</th><th scope="col">Added</th><th scope="col">Expires</th>${canRemove ? html`<th scope="col">Action</th>` : ''}</tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * First, Previous and Next page, keeping the page size and the search. Next carries this page on
 * the `back` trail (the newest MAX_BACK pages), which Previous then follows; a page reached
 * without a trail offers First only.
 */
export function pager(screen: string, query: ListQuery, nextCursor: string | null): Html {
  const link = (cursor: string | null, back: readonly string[]) => {
    const params = new URLSearchParams({ limit: String(query.limit) });
    if (query.q !== undefined) params.set('q', query.q);
    if (cursor !== null) params.set('cursor', cursor);
    if (back.length > 0) params.set('back', back.join('.'));
    return `${screen}?${params}`;
  };
  const back = query.back ?? [];
  const previousCursor = back.at(-1);
  const first = query.cursor === undefined ? '' : html`<a href="${link(null, [])}">First page</a>`;
  const previous =
    query.cursor === undefined || previousCursor === undefined
      ? ''
      : html`<a href="${link(previousCursor === FIRST_PAGE ? null : previousCursor, back.slice(0, -1))}" rel="prev">Previous page</a>`;
  const trail = [...back, query.cursor ?? FIRST_PAGE].slice(-MAX_BACK);
  const next =
    nextCursor === null
      ? html`<span>Last page.</span>`
      : html`<a href="${link(nextCursor, trail)}" rel="next">Next page</a>`;
  return html`<nav class="pager" aria-label="Pages">${first}${previous}${next}</nav>`;
}

export function searchForm(screen: string, query: ListQuery): Html {
  return html`<form method="get" action="${screen}" role="search">
<label for="q">Search the list (any part of the value)</label>
<input type="text" id="q" name="q" value="${query.q ?? ''}">
<input type="hidden" name="limit" value="${query.limit}">
<button type="submit">Search</button>
${query.q === undefined ? '' : html` <a href="${screen}">Show all bans</a>`}
</form>`;
}

export function checkResult(value: string, status: number, body: unknown): Html {
  if (status !== 200) return html`<p class="error" role="alert">Error: ${apiErrorText(body, status)}</p>`;
  const result = body as { banned: boolean; matched?: string; reason?: string | null; expires_at?: string | null };
  if (!result.banned) return html`<p role="status">Not banned: <code>${value}</code> matches no ban in force.</p>`;
  return html`<p role="status">Banned: <code>${value}</code> is covered by the ban on <code>${result.matched}</code>. Reason: ${result.reason ?? 'none given'}. Expires: ${timeCell(result.expires_at ?? null, 'never')}.</p>`;
}

/** The add form's second step: what will happen, the same fields hidden, and the Ban button. */
export function reviewPage(
  ctx: ConsoleContext,
  name: KindName,
  res: Response,
  form: AddForm,
  values: string[],
): string {
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
<p><button type="submit" class="danger">Ban</button> <a href="${ctx.base}/bans/${name}" data-dismiss>Cancel</a></p>
</form>`,
  );
}

export function addFailedPage(
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

export function removeConfirmPage(ctx: ConsoleContext, name: KindName, res: Response, value: string): string {
  const kind: BanKind = KINDS[name];
  return page(
    { base: ctx.base, title: `Remove the ban on ${value}?`, principal: adminPrincipal(res), current: `/bans/${name}` },
    html`<p>The ${kind.noun} <code>${value}</code> is no longer banned once you confirm.</p>
<form method="post" action="${ctx.base}/bans/${name}/remove">
<input type="hidden" name="value" value="${value}">
<input type="hidden" name="confirm" value="remove">
${reasonField({ id: 'reason', required: true })}
<p><button type="submit" class="danger">Remove the ban</button> <a href="${ctx.base}/bans/${name}" data-dismiss>Cancel</a></p>
</form>`,
  );
}
