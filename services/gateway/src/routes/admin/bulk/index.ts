import type { RequestHandler } from 'express';
import { BULK_ADD_GUILD_MEMBERS_JOB } from '@switchboard/contracts';
import { validate } from '@switchboard/http';
import { adminPrincipal, auditReason } from '../../../admin-auth/index.ts';
import type { GatewayDeps } from '../../../deps.ts';
import { answerOperation, operationStatusRoute, runOperation } from '../../../jobs/operations.ts';
import type { AdminHandlers } from '../handlers.ts';
import { bulkAddSchema } from './schemas.ts';

/**
 * POST /admin/bulk/add-guild-members: validated here, run by the bulk worker. 200 with
 * `{successful, failed}` when it finishes within ADMIN_JOB_WAIT_MS, else 202
 * `{operation_id, status}`; GET /admin/bulk/operations/{id} then reports the same body. An
 * unknown guild is not a 404: every user fails with UNKNOWN_GUILD (reference §8).
 */
function addGuildMembers(deps: GatewayDeps): RequestHandler {
  const schema = bulkAddSchema(deps.config.BULK_MAX_USER_IDS);
  return async (req, res) => {
    const body = validate(schema, req.body);
    const outcome = await runOperation(deps, {
      table: 'bulk_operations',
      contract: BULK_ADD_GUILD_MEMBERS_JOB,
      kind: 'add_guild_members',
      requestedBy: adminPrincipal(res).adminUserId,
      request: body,
      auditLogReason: auditReason(req),
    });
    answerOperation(res, outcome, 'operation_id');
  };
}

export function bulkHandlers(deps: GatewayDeps): AdminHandlers {
  return {
    'POST /v1/admin/bulk/add-guild-members': addGuildMembers(deps),
    'GET /v1/admin/bulk/operations/:operationId': operationStatusRoute(deps, {
      table: 'bulk_operations',
      param: 'operationId',
      idField: 'operation_id',
      notFound: 'UNKNOWN_BULK_OPERATION',
    }),
  };
}
