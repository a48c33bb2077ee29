import { z } from 'zod';
import { LIMITS } from '@switchboard/contracts';
import { field } from './form.ts';

const { list } = LIMITS.auditLogs;

/** How the audit screen orders entries: date either way, or relevance to the search words. */
export const AUDIT_SORTS = {
  newest: { label: 'Newest first', sort_by: 'createdAt', sort_order: 'desc' },
  oldest: { label: 'Oldest first', sort_by: 'createdAt', sort_order: 'asc' },
  relevance: { label: 'Most relevant first', sort_by: 'relevance', sort_order: 'desc' },
} as const;
export type AuditSort = keyof typeof AUDIT_SORTS;

/** The filters the admin API's audit routes take, by their API names (the page's field names). */
export const AUDIT_FILTERS = ['admin_user_id', 'target_type', 'target_id', 'action', 'from', 'to'] as const;

const count = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (value) => (Array.isArray(value) ? value[0] : value),
    z.coerce.number().int().min(min).max(max).catch(fallback),
  );

/**
 * The audit screen's query string. Values are passed to the API as they are, so its validation
 * (and its messages) decide what a filter may hold.
 */
export const auditQuery = z
  .object({
    q: field,
    sort: z.preprocess(
      (value) => (Array.isArray(value) ? value[0] : value),
      z.enum(['newest', 'oldest', 'relevance']).catch('newest'),
    ),
    admin_user_id: field,
    target_type: field,
    target_id: field,
    action: field,
    from: field,
    to: field,
    offset: count(0, 2 ** 31 - 1, 0),
    limit: count(list.min, list.max, list.default),
  })
  // Only a search orders otherwise than newest first: the form then shows the order applied.
  .transform((query) => (query.q?.trim() ? query : { ...query, sort: 'newest' as const }));
export type AuditQuery = z.output<typeof auditQuery>;

/** The admin call for one page: search when there are words (any order), else list (newest first). */
export function auditCall(query: AuditQuery, page: { offset: number; limit: number }) {
  const body: Record<string, unknown> = { offset: page.offset, limit: page.limit };
  for (const name of AUDIT_FILTERS) {
    const value = query[name]?.trim();
    if (value !== undefined && value !== '') body[name] = value;
  }
  const words = query.q?.trim();
  if (words === undefined || words === '') return { method: 'POST' as const, path: '/v1/admin/audit-logs', body };
  const sort = AUDIT_SORTS[query.sort];
  return {
    method: 'POST' as const,
    path: '/v1/admin/audit-logs/search',
    body: { ...body, query: words, sort_by: sort.sort_by, sort_order: sort.sort_order },
  };
}

/** The query string of the current filter (words and sort included), for links that keep it. */
export function filterParams(query: AuditQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of ['q', 'sort', ...AUDIT_FILTERS] as const) {
    const value = query[name];
    if (value !== undefined && value !== '') params.set(name, value);
  }
  return params;
}
