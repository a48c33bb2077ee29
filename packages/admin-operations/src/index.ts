export {
  acceptOperation,
  presentOperation,
  type AcceptDeps,
  type OperationOutcome,
  type OperationSpec,
} from './accept.ts';
export { enqueueForRow } from './enqueue.ts';
export { operationJob, type OperationJob } from './job.ts';
export {
  completeOperation,
  failOperation,
  findOperation,
  insertOperation,
  startOperation,
  type NewOperation,
  type Operation,
  type OperationState,
  type OperationTable,
} from './rows.ts';
export {
  JOB_LOST,
  NEVER_QUEUED,
  queuedRowSweep,
  queuedRowSweepConfig,
  queuedRowSweepHandler,
  rowJobStates,
  type JobRowTable,
  type QueuedRowSweep,
} from './row-sweep.ts';
export { operationWorkerSetup } from './worker.ts';
