import { z } from '@switchboard/config';
import { LIMITS } from '@switchboard/contracts';
import { intOption } from '../args.ts';
import type { OptionSpec } from '../command.ts';
import { defineCommand } from '../command.ts';
import { table, type Rendered } from '../render.ts';

interface AuditPage {
  logs: Array<Record<string, unknown>>;
  total: number;
}

const FILTER_OPTIONS: Record<string, OptionSpec> = {
  'admin-user-id': { type: 'string', value: 'ID', description: 'entries of this admin' },
  'target-type': { type: 'string', value: 'TYPE', description: 'e.g. ip, email, webhook, admin_api_key, archive' },
  'target-id': { type: 'string', value: 'ID', description: 'entries about this target (an address, an id …)' },
  action: { type: 'string', value: 'ACTION', description: 'e.g. ban_ip, delete_webhook' },
  from: { type: 'string', value: 'DATE', description: 'from this day (2024-05-01) or instant (…T…Z)' },
  to: { type: 'string', value: 'DATE', description: 'up to this day (inclusive) or instant' },
  limit: { type: 'string', value: 'N', description: 'entries per page' },
  offset: { type: 'string', value: 'N', description: 'entries to skip' },
};

const filters = {
  'admin-user-id': z.string().optional(),
  'target-type': z.string().optional(),
  'target-id': z.string().optional(),
  action: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  limit: intOption(LIMITS.auditLogs.list.min, LIMITS.auditLogs.list.max).optional(),
  offset: intOption(0, 2 ** 31 - 1).optional(),
};

/** The API validates the values (its 400 names the field); the CLI only renames them. */
function filterBody(o: z.infer<z.ZodObject<typeof filters>>) {
  return {
    admin_user_id: o['admin-user-id'],
    target_type: o['target-type'],
    target_id: o['target-id'],
    action: o.action,
    from: o.from,
    to: o.to,
    limit: o.limit,
    offset: o.offset,
  };
}

const COLUMNS = ['log_id', 'created_at', 'admin_user_id', 'action', 'target_type', 'target_id', 'audit_log_reason'];

const renderPage = (page: AuditPage): Rendered => ({
  kind: 'sections',
  sections: [table(page.logs, COLUMNS, '(no entries)'), { kind: 'text', text: `${page.total} in all` }],
});

export const auditListCommand = defineCommand({
  name: 'audit list',
  summary: 'audit log entries, newest first, by exact filters',
  uses: 'api',
  options: FILTER_OPTIONS,
  schema: z.object(filters),
  run: (options, api) => api.request<AuditPage>('POST', '/v1/admin/audit-logs', { body: filterBody(options) }),
  render: renderPage,
});

export const auditSearchCommand = defineCommand({
  name: 'audit search',
  summary: 'audit log entries matching words (in reasons, targets, actions, metadata)',
  uses: 'api',
  positionals: [{ name: 'query', description: 'the words to search for' }],
  options: {
    ...FILTER_OPTIONS,
    'sort-by': { type: 'string', value: 'createdAt|relevance', description: 'order (createdAt)' },
    'sort-order': { type: 'string', value: 'asc|desc', description: 'direction (desc)' },
  },
  schema: z.object({
    ...filters,
    query: z.string().min(1).max(1024),
    'sort-by': z.enum(['createdAt', 'relevance']).optional(),
    'sort-order': z.enum(['asc', 'desc']).optional(),
  }),
  run: (options, api) =>
    api.request<AuditPage>('POST', '/v1/admin/audit-logs/search', {
      body: {
        ...filterBody(options),
        query: options.query,
        sort_by: options['sort-by'],
        sort_order: options['sort-order'],
      },
    }),
  render: renderPage,
});
