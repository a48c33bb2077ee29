import { setTimeout as sleep } from 'node:timers/promises';
import { UnrecoverableError, Worker, type Job, type Processor } from 'bullmq';
import { InFlight } from '@switchboard/batching';
import { jobOriginOf, type AnyJobContract, type QueueName } from '@switchboard/contracts';
import type { Logger } from '@switchboard/logger';
import { tracedProcess, withRequestId } from '@switchboard/telemetry';
import { describeProblems, payloadProblems } from './errors.ts';
import { RunningJobContext } from './job-context.ts';
import { bullPrefix, COMPLETED_JOB_RETENTION, FAILED_JOB_RETENTION } from './options.ts';
import {
  closeRedis,
  createRedis,
  duplicateRedis,
  untilRedisAnswers,
  type RedisTarget,
  type RedisClient,
} from '@switchboard/redis';
import type { JobObserver } from './observer.ts';
import {
  registerHandlers,
  type FinalFailureHandler,
  type FinalFailureHandlersFor,
  type HandlersFor,
  type Registration,
} from './registry.ts';
import { checkSchedules, syncSchedules, type AnyJobSchedule } from './schedules.ts';
import { shutDownWorker, type ActiveJob, type StoppableWorker } from './shutdown.ts';

export interface WorkerTimings {
  /** How long a job's lock lasts without renewal; a crashed worker's jobs stall after it. */
  lockDurationMs: number;
  /** How often this worker looks for stalled jobs (of any worker) to put back in the queue. */
  stalledIntervalMs: number;
  /** Stalls a job survives before it is failed (protects against jobs that crash workers). */
  maxStalledCount: number;
}

/**
 * A killed worker's job is back in the queue within lock + stalled interval (≤ 15 s). BullMQ
 * counts a stall against maxStalledCount, not against attempts; see stallsAllowed.
 */
export const DEFAULT_WORKER_TIMINGS: Omit<WorkerTimings, 'maxStalledCount'> = {
  lockDurationMs: 10_000,
  stalledIntervalMs: 5_000,
};

/**
 * As many stalls as the queue's jobs have attempts: a job whose worker was killed twice still
 * runs while attempts remain, and a job that kills its worker every time (out of memory)
 * still ends, as failed.
 */
function stallsAllowed(contracts: readonly AnyJobContract[]): number {
  return Math.max(...contracts.map((contract) => contract.defaults.attempts));
}
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 25_000;

export interface StartWorkerOptions<Contracts extends readonly AnyJobContract[]> {
  queue: QueueName;
  /** Every job this worker owns; each needs a handler and vice versa. */
  contracts: Contracts;
  /** Typed from `contracts` (not inferred from the handlers themselves). */
  handlers: NoInfer<HandlersFor<Contracts>>;
  /** What to do when a job has failed for good (mark its row `failed` …). */
  onFinalFailure?: NoInfer<FinalFailureHandlersFor<Contracts>>;
  /** Periodic jobs of this queue, set up (idempotently) when the worker starts. */
  schedules?: readonly AnyJobSchedule[];
  /** A Redis URL, Sentinel or cluster target, or a factory of `worker` clients (createRedis with role `worker`). */
  connection: RedisTarget | (() => RedisClient);
  /** The deployment's REDIS_PREFIX. */
  redisPrefix: string;
  concurrency?: number;
  timings?: Partial<WorkerTimings>;
  logger: Logger;
  /** Told of every attempt and every job that leaves the active state (metrics). */
  observer?: JobObserver;
}

export interface RunningWorker {
  queue: QueueName;
  /** Stops taking jobs, lets active ones finish within the bound, then releases the rest. */
  close(timeoutMs?: number): Promise<void>;
}

/** Subclassed only to reach the lock renewal timer, which a forced close must stop. */
class QueueWorker extends Worker implements StoppableWorker {
  stopLockRenewal(): Promise<void> {
    return this.lockManager.close();
  }
}

/**
 * The observer with every call guarded: a measuring bug is logged, and never fails the job
 * (the processor reports from its `finally`) nor stops the worker's event handling.
 */
function guardedObserver(observer: JobObserver | undefined, logger: Logger): JobObserver {
  if (!observer) return { attemptEnded: () => {}, jobSettled: () => {} };
  const guard = (call: () => void) => {
    try {
      call();
    } catch (error) {
      logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'job observer failed');
    }
  };
  return {
    attemptEnded: (...args) => guard(() => observer.attemptEnded(...args)),
    jobSettled: (...args) => guard(() => observer.jobSettled(...args)),
  };
}

/** The request id a job carries (its origin), for the lines logged about it outside its run. */
function requestIdOf(job: Job | undefined): string | undefined {
  return job ? jobOriginOf(job.data)?.requestId : undefined;
}

/**
 * Runs each job's handler as the work of the request that enqueued it: its log lines carry that
 * request's id, and with tracing on it runs in a consumer span that continues the request's
 * trace from the job's enqueue (docs/decisions.md#request-ids-and-traces-across-the-queue).
 */
function createProcessor(
  queue: QueueName,
  registry: Map<string, Registration>,
  active: InFlight<ActiveJob>,
  logger: Logger,
  observer: JobObserver,
): Processor {
  return async (job: Job, token?: string, signal?: AbortSignal) => {
    const registration = registry.get(job.name);
    // Left retryable: during a rolling deploy a newer worker may know this job.
    if (!registration) throw new Error(`No handler for job "${job.name}" in this worker`);
    const parsed = registration.contract.payload.safeParse(job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(`Malformed payload: ${describeProblems(payloadProblems(parsed.error))}`);
    }
    const running: ActiveJob = { job, token: token ?? '' };
    active.add(running);
    const startedAt = performance.now();
    let outcome: 'completed' | 'failed' = 'failed';
    try {
      const context = new RunningJobContext(
        {
          jobId: job.id ?? '',
          jobName: job.name,
          attemptsMade: job.attemptsMade,
          signal: signal ?? new AbortController().signal,
        },
        logger,
      );
      const origin = jobOriginOf(job.data);
      const result = await withRequestId(origin?.requestId, () =>
        tracedProcess(queue, context, origin, () => registration.handler(parsed.data, context)),
      );
      outcome = 'completed';
      return result;
    } finally {
      active.delete(running);
      observer.attemptEnded(job.name, outcome, (performance.now() - startedAt) / 1000);
    }
  };
}

/**
 * Logs what happens to jobs and reports each job leaving the active state to the observer.
 * Ids and reasons only: payloads may hold personal data. A completed job is debug: at a
 * thousand jobs a second, one info line each is a noticeable share of a worker's CPU
 * (packages/bench/README.md#redis-and-the-queue); failures, retries and stalls stay visible
 * at info.
 */
function logEvents(
  worker: Worker,
  logger: Logger,
  observer: JobObserver,
  onFinalFailure: (job: Job, reason: string) => Promise<void>,
): void {
  worker.on('completed', (job) => {
    observer.jobSettled(job.name, 'completed', job.attemptsMade);
    // Guarded: the origin is parsed for the line only, and the line is usually off.
    if (!logger.isLevelEnabled('debug')) return;
    logger.debug(
      { jobName: job.name, jobId: job.id, attemptsMade: job.attemptsMade, requestId: requestIdOf(job) },
      'job completed',
    );
  });
  // Also emitted for a job the stalled-job check failed (killed too often): no handler ran then.
  worker.on('failed', (job, error) => {
    const unrecoverable = error instanceof UnrecoverableError || error.name === 'UnrecoverableError';
    const final = !job || unrecoverable || job.attemptsMade >= (job.opts.attempts ?? 1);
    const fields = {
      jobName: job?.name,
      jobId: job?.id,
      attemptsMade: job?.attemptsMade,
      requestId: requestIdOf(job),
      reason: error.message,
    };
    if (job) observer.jobSettled(job.name, final ? 'failed' : 'retrying', job.attemptsMade);
    if (!final) return logger.warn(fields, 'job attempt failed, will retry');
    logger.error({ ...fields, unrecoverable }, 'job failed');
    if (job) void onFinalFailure(job, error.message);
  });
  worker.on('stalled', (jobId) => logger.warn({ jobId }, 'job stalled, back in the queue'));
  worker.on('error', (error) => logger.error({ reason: error.message }, 'worker error'));
}

/**
 * Waits between tries of a final-failure handler. The handler runs once, from the worker's
 * `failed` event, so a database away for a moment would otherwise leave the job's row as it
 * was until the row sweep finds it; past these, the sweep does (docs/decisions.md#queued-rows-without-a-job).
 */
const FINAL_FAILURE_RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000] as const;

/** Runs a job's final-failure handler with its parsed payload, again after a failure; the last failure is logged. */
function finalFailureRunner(
  registry: Map<string, Registration>,
  handlers: Record<string, FinalFailureHandler<unknown> | undefined>,
  logger: Logger,
): (job: Job, reason: string) => Promise<void> {
  return async (job, reason) => {
    const handler = handlers[job.name];
    const parsed = registry.get(job.name)?.contract.payload.safeParse(job.data);
    if (!handler || !parsed?.success) return;
    for (let attempt = 0; ; attempt++) {
      try {
        return await handler(parsed.data, reason);
      } catch (error) {
        const delay = FINAL_FAILURE_RETRY_DELAYS_MS[attempt];
        const fields = { jobName: job.name, jobId: job.id, reason: (error as Error).message };
        if (delay === undefined) return logger.error(fields, 'final-failure handler failed');
        logger.warn(fields, 'final-failure handler failed, will try again');
        // Unreferenced: a process shutting down does not wait; the row sweep covers it then.
        await sleep(delay, undefined, { ref: false });
      }
    }
  };
}

export async function startWorker<const Contracts extends readonly AnyJobContract[]>(
  options: StartWorkerOptions<Contracts>,
): Promise<RunningWorker> {
  const { queue, contracts, handlers, redisPrefix, concurrency = 1 } = options;
  const registry = registerHandlers(queue, contracts, handlers as Record<string, unknown>);
  const given = Object.fromEntries(Object.entries(options.timings ?? {}).filter(([, value]) => value !== undefined));
  const timings: WorkerTimings = { ...DEFAULT_WORKER_TIMINGS, maxStalledCount: stallsAllowed(contracts), ...given };
  const logger = options.logger.child({ queue });
  const connection =
    typeof options.connection === 'function'
      ? options.connection()
      : createRedis(options.connection, { role: 'worker', name: `${queue}-worker`, logger });
  // Not a Map: one set and one delete per job churns a hash table (see InFlight).
  const active = new InFlight<ActiveJob>();
  const observer = guardedObserver(options.observer, logger);
  const worker = new QueueWorker(queue, createProcessor(queue, registry, active, logger, observer), {
    connection,
    prefix: bullPrefix(redisPrefix, { queue, connection }),
    concurrency,
    lockDuration: timings.lockDurationMs,
    stalledInterval: timings.stalledIntervalMs,
    maxStalledCount: timings.maxStalledCount,
    // Fallbacks for jobs added without retention (contracts always set it).
    removeOnComplete: { age: COMPLETED_JOB_RETENTION.ageSeconds, count: COMPLETED_JOB_RETENTION.count },
    removeOnFail: { age: FAILED_JOB_RETENTION.ageSeconds, count: FAILED_JOB_RETENTION.count },
  });
  const finalFailures = (options.onFinalFailure ?? {}) as Record<string, FinalFailureHandler<unknown> | undefined>;
  logEvents(worker, logger, observer, finalFailureRunner(registry, finalFailures, logger));
  await worker.waitUntilReady();
  const schedules = options.schedules ?? [];
  checkSchedules(queue, schedules);
  const scheduler = duplicateRedis(connection, { role: 'producer', name: `${queue}-scheduler`, logger });
  try {
    // Redis may go away between the worker's start and here (a restart during a stall): the
    // schedules are set once it answers again, not given up on (each try a fresh Queue).
    await untilRedisAnswers(() => syncSchedules(scheduler, redisPrefix, queue, schedules, logger), {
      logger,
      what: 'job schedules not set yet; trying again',
    });
  } finally {
    await closeRedis(scheduler);
  }
  logger.info({ jobs: [...registry.keys()], concurrency, ...timings }, 'worker started');

  let closing: Promise<void> | undefined;
  const close = (timeoutMs = DEFAULT_SHUTDOWN_TIMEOUT_MS): Promise<void> => {
    closing ??= shutDownWorker(worker, active, timeoutMs, logger).finally(() => closeRedis(connection));
    return closing;
  };
  return { queue, close };
}
