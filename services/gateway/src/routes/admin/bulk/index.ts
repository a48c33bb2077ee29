import type { RequestHandler } from 'express';
import { BULK_ADD_GUILD_MEMBERS_JOB } from '@switchboard/contracts';
import { validate } from '@switchboard/http';
import type { GatewayDeps } from '../../../deps.ts';
import { answerWithOperation, operationStatusRoute } from '../../../jobs/operations.ts';
import type { AdminHandlers } from '../handlers.ts';
import { bulkAddSchema } from './schemas.ts';

/**
 * POST /admin/bulk/add-guild-members: validated here, run by the bulk worker. 200 with
 * `{successful, failed}` when it finishes within ADMIN_JOB_WAIT_MS, else 202
 * `{operation_id, status}`; GET /admin/bulk/operations/{id} then reports the same body. An
 * unknown guild is not a 404: every user fails with UNKNOWN_GUILD (docs/decisions.md#fluxer-bulk-add).
 */
function addGuildMembers(deps: GatewayDeps): RequestHandler {
  const schema = bulkAddSchema(deps.config.BULK_MAX_USER_IDS);
  return async (req, res) => {
    const body = validate(schema, req.body);
    const contract = BULK_ADD_GUILD_MEMBERS_JOB;
    await answerWithOperation(deps, req, res, {
      table: 'bulk_operations',
      contract,
      kind: 'add_guild_members',
      request: body,
      idField: 'operation_id',
    });
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
