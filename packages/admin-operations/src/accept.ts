import type { OperationJobContract } from '@switchboard/contracts';
import type { Pool } from '@switchboard/db';
import { ApiError } from '@switchboard/http';
import type { Producer } from '@switchboard/queue';
import type { SnowflakeGenerator } from '@switchboard/snowflake';
import { enqueueForRow } from './enqueue.ts';
import {
  failOperation,
  findOperation,
  insertOperation,
  type NewOperation,
  type OperationState,
  type OperationTable,
} from './rows.ts';

const FAILED = 'The operation failed; request it again.';

/** What the worker said within the wait, or that it is still at it. */
export type OperationOutcome = { state: 'done'; result: unknown } | { state: 'pending'; operation: OperationState };

export interface OperationSpec extends Omit<NewOperation, 'id'> {
  table: OperationTable;
  contract: OperationJobContract;
}

export interface AcceptDeps {
  pool: Pool;
  producer: Producer;
  ids: SnowflakeGenerator;
  /** How long the request waits for the worker before it answers with the row as it stands. */
  waitMs: number;
}

/**
 * An enqueue-and-wait admin operation (docs/decisions.md#operation-rows-and-status-routes): insert
 * the row (its id is the job id), enqueue the job (enqueueForRow: Redis away is a 503 and a failed
 * row), wait for it up to `waitMs`, then read the row: completed is the outcome, failed (or a job
 * that failed for good within the wait) a 503, anything else pending (202 by the caller).
 */
export async function acceptOperation(
  { pool, producer, ids, waitMs }: AcceptDeps,
  { table, contract, ...row }: OperationSpec,
): Promise<OperationOutcome> {
  const id = ids.next();
  await insertOperation(pool, table, { id, ...row });
  const outcome = await enqueueForRow(
    () => producer.enqueueAndWait(contract, { operationId: id }, { timeoutMs: waitMs }),
    (message) => failOperation(pool, table, id, message),
  );
  // The job's failure event can come before its worker has marked the row (operationJob's
  // final-failure handler runs after it): mark it here too, first one wins, so the answer and
  // the row agree and the row never stays `running` after its job failed for good.
  if (outcome.state === 'failed') await failOperation(pool, table, id, FAILED);
  // The outcome is the row's (operationJob): a completed job says it is there to read.
  const operation = await findOperation(pool, table, id);
  if (operation?.status === 'failed') {
    throw new ApiError('SERVICE_UNAVAILABLE', { message: operation.error ?? FAILED, headers: { 'Retry-After': '1' } });
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
