import type { Request, RequestHandler, Response } from 'express';
import {
  acceptOperation,
  findOperation,
  presentOperation,
  type OperationSpec,
  type OperationTable,
} from '@switchboard/admin-operations';
import type { ErrorCode } from '@switchboard/contracts';
import { ApiError } from '@switchboard/http';
import { adminPrincipal, auditReason } from '../admin-auth/index.ts';
import type { GatewayDeps } from '../deps.ts';
import { snowflakeFromPath } from '../routes/admin/path-id.ts';

/**
 * Runs the operation for the admin calling (`requestedBy`, `X-Audit-Log-Reason`), waiting up to
 * ADMIN_JOB_WAIT_MS for its worker, and answers: 200 with the outcome, or 202 with
 * `{<idField>, status}` while it runs on.
 */
export async function answerWithOperation(
  { pool, producer, ids, config }: Pick<GatewayDeps, 'pool' | 'producer' | 'ids' | 'config'>,
  req: Request,
  res: Response,
  spec: Omit<OperationSpec, 'requestedBy' | 'requestedByKeyId' | 'auditLogReason'> & { idField: string },
): Promise<void> {
  const { idField, ...operation } = spec;
  const { adminUserId, keyId } = adminPrincipal(res);
  const outcome = await acceptOperation(
    { pool, producer, ids, waitMs: config.ADMIN_JOB_WAIT_MS },
    { ...operation, requestedBy: adminUserId, requestedByKeyId: keyId, auditLogReason: auditReason(req) },
  );
  if (outcome.state === 'done') res.json(outcome.result);
  else res.status(202).json(presentOperation(idField, outcome.operation));
}

/** GET …/{id} of an operation: its status body, or 404 `notFound` for an id that names none. */
export function operationStatusRoute(
  { pool }: Pick<GatewayDeps, 'pool'>,
  spec: { table: OperationTable; param: string; idField: string; notFound: ErrorCode },
): RequestHandler {
  return async (req, res) => {
    const id = snowflakeFromPath(req.params[spec.param]);
    const operation = id === null ? null : await findOperation(pool, spec.table, id);
    if (!operation) throw new ApiError(spec.notFound);
    res.json(presentOperation(spec.idField, operation));
  };
}
