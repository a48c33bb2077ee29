import type { OperationPayload } from '@switchboard/contracts';
import type { Pool } from '@switchboard/db';
import type { FinalFailureHandler, JobHandler } from '@switchboard/queue';
import { failOperation, startOperation, type Operation, type OperationTable } from './rows.ts';

export interface OperationJob {
  handler: JobHandler<OperationPayload>;
  onFinalFailure: FinalFailureHandler<OperationPayload>;
}

/**
 * The job-row lifecycle every admin operation shares (docs/decisions.md#jobs-and-their-rows): the row moves to
 * `running` (again, on a retry) before `run` does the work; `run` moves it to `completed`
 * itself, in the transaction of its last effects. A job whose row is already finished does
 * nothing (a duplicate or a retry after the commit); when the last attempt fails, the row
 * becomes `failed` with `publicError`, which says nothing about internals (the logs have the
 * reason). The outcome is the row's alone: the job returns nothing, so the completion event
 * every gateway replica reads only says the row is done, and a 1000-user result (22 KB) is
 * not carried through Redis to every replica; the waiting gateway reads it from the row.
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
      if (operation) await run(operation);
    },
    onFinalFailure: async ({ operationId }) => {
      await failOperation(pool, table, operationId, publicError);
    },
  };
}
