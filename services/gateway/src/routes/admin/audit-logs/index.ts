import type { RequestHandler } from 'express';
import { listAuditLogs, searchAuditLogs } from '@switchboard/db';
import { validate } from '@switchboard/http';
import type { GatewayDeps } from '../../../deps.ts';
import type { AdminHandlers } from '../handlers.ts';
import { presentAuditLogs } from './presenter.ts';
import { listAuditLogsSchema, searchAuditLogsSchema, toFilters } from './schemas.ts';

/** Filtered entries, newest first, with the total (exact up to a bound). */
function list({ pool }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const body = validate(listAuditLogsSchema, req.body);
    res.json(presentAuditLogs(await listAuditLogs(pool, toFilters(body), body)));
  };
}

/** Full-text search (PostgreSQL, GIN) with the list's filters, by date or relevance. */
function search({ pool }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const body = validate(searchAuditLogsSchema, req.body);
    const result = await searchAuditLogs(pool, toFilters(body), {
      query: body.query,
      sortBy: body.sort_by,
      sortOrder: body.sort_order,
      limit: body.limit,
      offset: body.offset,
    });
    res.json(presentAuditLogs(result));
  };
}

export function auditLogHandlers(deps: GatewayDeps): AdminHandlers {
  return {
    'POST /v1/admin/audit-logs': list(deps),
    'POST /v1/admin/audit-logs/search': search(deps),
  };
}
