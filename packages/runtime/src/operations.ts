import type { OperationPayload } from '@switchboard/contracts';
import { findOperation, failOperation, startOperation, type Operation, type OperationTable, type Pool } from '@switchboard/db';
import type { FinalFailureHandler, JobHandler } from '@switchboard/queue';

export interface OperationJob {
  handler: JobHandler<OperationPayload>;
  onFinalFailure: FinalFailureHandler<OperationPayload>;
}

/**
 * The job-row lifecycle every admin operation shares (decisions §13): the row moves to
 * `running` (again, on a retry) before `run` does the work; `run` moves it to `completed`
 * itself, in the transaction of its last effects, and returns the outcome. A job whose row is
 * already finished returns the stored outcome without doing anything (a duplicate or a retry
 * after the commit); when the last attempt fails, the row becomes `failed` with `publicError`,
 * which says nothing about internals (the logs have the reason).
 */
export function operationJob(
  pool: Pool,
  table: OperationTable,
  publicError: string,
  run: (operation: Operation) => Promise<unknown>,
): OperationJob {
  return {
    handler: async ({ operationId }) => {
      const operation = await startOperation(pool, table, operationId);
      if (operation) return run(operation);
      const finished = await findOperation(pool, table, operationId);
      return finished?.status === 'completed' ? finished.result : null;
    },
    onFinalFailure: async ({ operationId }) => {
      await failOperation(pool, table, operationId, publicError);
    },
  };
}
