/** One measured request: a name for the table, the route, and its body. */
export interface AuditBenchCase {
  name: string;
  path: '/v1/admin/audit-logs' | '/v1/admin/audit-logs/search';
  body: Record<string, unknown>;
}

const SEARCH = '/v1/admin/audit-logs/search';
const LIST = '/v1/admin/audit-logs';
const DAY_MS = 86_400_000;

/**
 * Representative requests over the seeded log (see seed.ts for the distribution): a term in
 * 6 % of entries ("spam"), one in 57 % ("ban"), a needle (one email, 20 entries), phrases, filters and
 * both sort modes; then list with and without filters and a deep page.
 */
export function auditBenchCases(options: { adminUserId: string; now: Date }): AuditBenchCase[] {
  const daysAgo = (days: number) => new Date(options.now.getTime() - days * DAY_MS).toISOString();
  return [
    { name: 'search "spam" (6%), newest first', path: SEARCH, body: { query: 'spam' } },
    { name: 'search "spam", relevance', path: SEARCH, body: { query: 'spam', sort_by: 'relevance' } },
    { name: 'search "ban" (57%), oldest first', path: SEARCH, body: { query: 'ban', sort_order: 'asc' } },
    { name: 'search "ban", relevance', path: SEARCH, body: { query: 'ban', sort_by: 'relevance' } },
    { name: 'search one email (20 entries)', path: SEARCH, body: { query: 'user4248@example.com' } },
    {
      name: 'search "spam" + target_type/action',
      path: SEARCH,
      body: { query: 'spam', target_type: 'ip', action: 'ban_ip' },
    },
    {
      name: 'search phrase -word, 30 days, relevance',
      path: SEARCH,
      body: { query: '"spam wave" -phishing', from: daysAgo(30), sort_by: 'relevance' },
    },
    { name: 'list, no filters', path: LIST, body: {} },
    { name: 'list, admin_user_id', path: LIST, body: { admin_user_id: options.adminUserId } },
    { name: 'list, target_id (20 entries)', path: LIST, body: { target_id: '100000000000000133' } },
    {
      name: 'list, type+action, 90 days',
      path: LIST,
      body: { target_type: 'ip', action: 'ban_ip', from: daysAgo(90), to: options.now.toISOString() },
    },
    { name: 'list, offset 10000', path: LIST, body: { offset: 10_000, limit: 50 } },
  ];
}
