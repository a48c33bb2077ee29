// The audit screen's markup: the filter form, the table with expandable rows, the pager.
import type { AuditLogEntry } from '@switchboard/contracts';
import { AUDIT_SORTS, filterParams, type AuditQuery } from './audit-query.ts';
import { html, timeCell, type Html } from './html.ts';

/** Names the console knows for ids on the page: the operator itself and its own keys. */
export interface KnownNames {
  adminUserId: string;
  keys: ReadonlyMap<string, string>;
}

function adminName(id: string, names: KnownNames): Html {
  return html`<code>${id}</code>${id === names.adminUserId ? ' (you)' : ''}`;
}

function keyName(id: string | null, names: KnownNames): Html {
  if (id === null) return html`not recorded`;
  const name = names.keys.get(id);
  return html`<code>${id}</code>${name === undefined ? '' : html` (key “${name}”)`}`;
}

function input(name: string, label: string, value: string | undefined, type = 'text'): Html {
  return html`<div><label for="${name}">${label}</label><input type="${type}" id="${name}" name="${name}" value="${value ?? ''}"></div>`;
}

export function filterForm(screen: string, query: AuditQuery): Html {
  const sorts = Object.entries(AUDIT_SORTS).map(
    ([value, sort]) =>
      html`<option value="${value}"${query.sort === value ? html` selected` : ''}>${sort.label}</option>`,
  );
  return html`<form method="get" action="${screen}" role="search" class="filters">
${input('q', 'Search words (reason, action, target, metadata)', query.q, 'search')}
<div><label for="sort">Order</label><select id="sort" name="sort">${sorts}</select>
<p class="hint">Oldest first and relevance need search words; without them the newest come first.</p></div>
${input('action', 'Action (exact, e.g. ban_ip)', query.action)}
${input('target_type', 'Target type (exact, e.g. api_key)', query.target_type)}
${input('target_id', 'Target id (exact)', query.target_id)}
${input('admin_user_id', 'Admin user id', query.admin_user_id)}
${input('from', 'From (date, inclusive)', query.from, 'date')}
${input('to', 'To (date, inclusive)', query.to, 'date')}
<input type="hidden" name="limit" value="${query.limit}">
<p><button type="submit">Show entries</button> <a href="${screen}">Clear the filter</a></p>
</form>`;
}

function details(entry: AuditLogEntry, names: KnownNames): Html {
  const metadata = Object.entries(entry.metadata);
  return html`<dl>
<dt>Entry</dt><dd><code>${entry.log_id}</code></dd>
<dt>Admin</dt><dd>${adminName(entry.admin_user_id, names)}</dd>
<dt>Key</dt><dd>${keyName(entry.api_key_id, names)}</dd>
<dt>Target</dt><dd>${entry.target_type} <code>${entry.target_id}</code></dd>
<dt>Reason</dt><dd>${entry.audit_log_reason ?? 'No reason given'}</dd>
<dt>Details</dt><dd>${
    metadata.length === 0
      ? 'None'
      : html`<dl class="metadata">${metadata.map(([key, value]) => html`<dt>${key}</dt><dd><code>${value}</code></dd>`)}</dl>`
  }</dd>
</dl>`;
}

/**
 * Entries as rows, each followed by its details row. Without script the details show; the
 * script collapses them behind a button that says its state (aria-expanded).
 */
export function auditTable(entries: AuditLogEntry[], names: KnownNames, caption: string): Html {
  if (entries.length === 0) return html`<p>No entry matches this filter.</p>`;
  const rows = entries.map((entry) => {
    const id = `entry-${entry.log_id}`;
    return html`<tr>
<td>${timeCell(entry.created_at, '')}</td>
<td>${entry.action}</td>
<td>${entry.target_type} <code>${entry.target_id}</code></td>
<td>${adminName(entry.admin_user_id, names)}</td>
<td>${entry.audit_log_reason ?? 'No reason given'}</td>
<td><button type="button" class="expander" aria-expanded="false" aria-controls="${id}" aria-label="Details of entry ${entry.log_id}" hidden>Details</button></td>
</tr>
<tr id="${id}" class="details"><td colspan="6">${details(entry, names)}</td></tr>`;
  });
  return html`<table><caption>${caption}</caption><thead><tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Admin</th><th scope="col">Reason</th><th scope="col"><span class="visually-hidden">Details</span></th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** "1–50 of 123" (or "of about 123" when the API says its total is an estimate). */
export function rangeText(offset: number, shown: number, total: number, exact: boolean): string {
  if (shown === 0) return exact ? `${total} entries` : `about ${total} entries`;
  return `Entries ${offset + 1}–${offset + shown} of ${exact ? '' : 'about '}${total}`;
}

/** Previous and Next pages of the same filter. */
export function auditPager(screen: string, query: AuditQuery, shown: number, total: number, exact: boolean): Html {
  const link = (offset: number) => {
    const params = filterParams(query);
    params.set('limit', String(query.limit));
    if (offset > 0) params.set('offset', String(offset));
    return `${screen}?${params}`;
  };
  const previous =
    query.offset === 0
      ? ''
      : html`<a href="${link(Math.max(0, query.offset - query.limit))}" rel="prev">Previous page</a>`;
  // An estimated total may be short or long: a full page always offers the next one.
  const more = exact ? query.offset + shown < total : shown === query.limit;
  const next = more
    ? html`<a href="${link(query.offset + query.limit)}" rel="next">Next page</a>`
    : html`<span>Last page.</span>`;
  return html`<nav class="pager" aria-label="Pages">${previous}${next}</nav>`;
}
