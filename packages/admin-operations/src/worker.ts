import type { AnyJobContract, JobContract, OperationPayload } from '@switchboard/contracts';
import type { Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import type { FinalFailureHandlersFor, HandlersFor } from '@switchboard/queue';
import { operationJob } from './job.ts';
import { queuedRowSweep } from './row-sweep.ts';
import type { Operation, OperationTable } from './rows.ts';
import type { RedisClient } from '@switchboard/redis';

/**
 * What a worker that runs one kind of admin operation registers: `job` runs `run` on the
 * operation's row (failing the row with `publicError` once the job has failed for good), and
 * `sweepJob` fails the rows of `table` whose job is gone.
 */
export function operationWorkerSetup<
  // biome-ignore lint/suspicious/noExplicitAny: as AnyJobContract: any input the payload schema accepts.
  Job extends JobContract<OperationPayload, any>,
  SweepJob extends AnyJobContract,
>(options: {
  resources: { pool: Pool; redis: RedisClient };
  config: { REDIS_PREFIX: string; QUEUED_ROW_ORPHAN_AGE_MS: number; QUEUED_ROW_SWEEP_INTERVAL_MS: number };
  logger: Logger;
  table: OperationTable;
  publicError: string;
  run: (operation: Operation) => Promise<unknown>;
  job: Job;
  sweepJob: SweepJob;
}) {
  const { resources, config, logger, table, job, sweepJob } = options;
  const operation = operationJob(resources.pool, table, options.publicError, options.run);
  const sweep = queuedRowSweep({
    ...resources,
    config,
    table,
    contract: sweepJob,
    rowJob: job,
    failedJobError: () => options.publicError,
    logger,
  });
  type Jobs = readonly [Job, SweepJob];
  // Keyed by the contracts' names; TypeScript types a computed key as any string, hence the casts.
  return {
    handlers: { [job.name]: operation.handler, [sweepJob.name]: sweep.handler } as unknown as HandlersFor<Jobs>,
    onFinalFailure: { [job.name]: operation.onFinalFailure } as unknown as FinalFailureHandlersFor<Jobs>,
    schedules: [sweep.schedule],
    close: sweep.close,
  };
}
