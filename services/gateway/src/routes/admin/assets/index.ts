import type { RequestHandler } from 'express';
import { ASSET_PURGE_JOB } from '@switchboard/contracts';
import { findGuildById } from '@switchboard/db';
import { ApiError, validate } from '@switchboard/http';
import type { GatewayDeps } from '../../../deps.ts';
import { answerWithOperation, operationStatusRoute } from '../../../jobs/operations.ts';
import type { AdminHandlers } from '../handlers.ts';
import { purgeRequestSchema } from './schemas.ts';

/**
 * POST /admin/assets/purge: validated here, run by the asset-purge worker. 200 with
 * `{processed, errors, deleted_objects}` when it finishes within ADMIN_JOB_WAIT_MS, else 202
 * `{purge_id, status}`; GET /admin/assets/purges/{id} then reports the same body.
 */
function purge(deps: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const body = validate(purgeRequestSchema, req.body);
    if (body.guild_id !== undefined && !(await findGuildById(deps.pool, body.guild_id)))
      throw new ApiError('UNKNOWN_GUILD');
    const request = body.guild_id !== undefined ? { guild_id: body.guild_id } : { ids: body.ids };
    await answerWithOperation(deps, req, res, {
      table: 'asset_purges',
      contract: ASSET_PURGE_JOB,
      request,
      idField: 'purge_id',
    });
  };
}

export function assetHandlers(deps: GatewayDeps): AdminHandlers {
  return {
    'POST /v1/admin/assets/purge': purge(deps),
    'GET /v1/admin/assets/purges/:purgeId': operationStatusRoute(deps, {
      table: 'asset_purges',
      param: 'purgeId',
      idField: 'purge_id',
      notFound: 'UNKNOWN_ASSET_PURGE',
    }),
  };
}
