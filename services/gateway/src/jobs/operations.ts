import type { Request, RequestHandler, Response } from 'express';
import type { ErrorCode, OperationJobContract } from '@switchboard/contracts';
import {
  failOperation,
  findOperation,
  insertOperation,
  type NewOperation,
  type OperationState,
  type OperationTable,
} from '@switchboard/db';
import { ApiError } from '@switchboard/http';
import { adminPrincipal, auditReason } from '../admin-auth/index.ts';
import type { GatewayDeps } from '../deps.ts';
import { snowflakeFromPath } from '../routes/admin/path-id.ts';
import { enqueueForRow } from './enqueue.ts';

/** What the worker said within the wait, or that it is still at it. */
export type OperationOutcome = { state: 'done'; result: unknown } | { state: 'pending'; operation: OperationState };

export interface OperationSpec extends Omit<NewOperation, 'id'> {
  table: OperationTable;
  contract: OperationJobContract;
}

/**
 * An enqueue-and-wait admin operation (docs/decisions.md#operation-rows-and-status-routes): insert
 * the row (its id is the job id), enqueue the job (enqueueForRow: Redis away is a 503 and a failed
 * row), wait for it up to ADMIN_JOB_WAIT_MS, then read the row: completed is the outcome, failed
 * (or a job that failed for good within the wait) a 503, anything else the answer's status (202 by
 * the caller).
 */
export async function runOperation(
  { pool, producer, ids, config }: Pick<GatewayDeps, 'pool' | 'producer' | 'ids' | 'config'>,
  { table, contract, ...row }: OperationSpec,
): Promise<OperationOutcome> {
  const id = ids.next();
  await insertOperation(pool, table, { id, ...row });
  const outcome = await enqueueForRow(
    () => producer.enqueueAndWait(contract, { operationId: id }, { timeoutMs: config.ADMIN_JOB_WAIT_MS }),
    (message) => failOperation(pool, table, id, message),
  );
  // The outcome is the row's (operationJob): a completed job says it is there to read.
  const operation = await findOperation(pool, table, id);
  if (outcome.state === 'failed' || operation?.status === 'failed') {
    throw new ApiError('SERVICE_UNAVAILABLE', {
      message: operation?.error ?? 'The operation failed; request it again.',
      headers: { 'Retry-After': '1' },
    });
  }
  if (operation?.status === 'completed') return { state: 'done', result: operation.result };
  return { state: 'pending', operation: operation! };
}

/**
 * The body of an operation's status route: `{<idField>, status}` while it runs, plus the
 * outcome body once completed (the same body the first request would have had) or `error`
 * once failed.
 */
export function presentOperation(idField: string, operation: OperationState): Record<string, unknown> {
  const head = { [idField]: operation.id, status: operation.status };
  if (operation.status === 'completed') return { ...head, ...(operation.result as Record<string, unknown>) };
  if (operation.status === 'failed') return { ...head, error: operation.error };
  return head;
}

/**
 * Runs the operation for the admin calling (`requestedBy`, `X-Audit-Log-Reason`) and answers:
 * 200 with the outcome, or 202 with `{<idField>, status}` while it runs on.
 */
export async function answerWithOperation(
  deps: Pick<GatewayDeps, 'pool' | 'producer' | 'ids' | 'config'>,
  req: Request,
  res: Response,
  spec: Omit<OperationSpec, 'requestedBy' | 'requestedByKeyId' | 'auditLogReason'> & { idField: string },
): Promise<void> {
  const { idField, ...operation } = spec;
  const { adminUserId, keyId } = adminPrincipal(res);
  const outcome = await runOperation(deps, {
    ...operation,
    requestedBy: adminUserId,
    requestedByKeyId: keyId,
    auditLogReason: auditReason(req),
  });
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
