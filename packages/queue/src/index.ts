export {
  bullPrefix,
  toJobOptions,
  jobIdFor,
  jobIdOf,
  COMPLETED_JOB_RETENTION,
  FAILED_JOB_RETENTION,
  DEFAULT_JOB_ATTEMPTS,
  DEFAULT_JOB_BACKOFF,
  type EnqueueOptions,
} from './options.ts';
export { bullQueue } from './bull-queue.ts';
export {
  InvalidJobPayloadError,
  QueueUnavailableError,
  ReplicationShortfallError,
  type PayloadProblem,
} from './errors.ts';
export { settlesWithin } from './shutdown.ts';
export {
  createProducer,
  type Producer,
  type ProducerOptions,
  type EnqueuedJob,
  type FailedJob,
  type RetryOutcome,
} from './producer.ts';
export type { WaitOutcome } from './wait.ts';
export type { JobContext, JobHandler, HandlersFor, FinalFailureHandler, FinalFailureHandlersFor } from './registry.ts';
export type { AnyJobSchedule, JobSchedule } from './schedules.ts';
export type { JobObserver } from './observer.ts';
export {
  startWorker,
  DEFAULT_WORKER_TIMINGS,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type StartWorkerOptions,
  type RunningWorker,
  type WorkerTimings,
} from './worker.ts';
