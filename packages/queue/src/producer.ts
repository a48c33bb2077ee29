import type { Job, JobsOptions, Queue } from 'bullmq';
import { createBatcher, InFlight } from '@switchboard/batching';
import {
  JOB_ORIGIN_FIELD,
  type AnyJobContract,
  type JobContract,
  type JobOrigin,
  type QueueName,
} from '@switchboard/contracts';
import type { Logger } from '@switchboard/logger';
import { currentRequestId, tracedSend, type TraceCarrier } from '@switchboard/telemetry';
import { InvalidJobPayloadError, QueueUnavailableError, ReplicationShortfallError } from './errors.ts';
import { toJobOptions, type EnqueueOptions } from './options.ts';
import { createQueueCache } from './queue-cache.ts';
import { isRedisUnavailable, whenRedisReady, type RedisClient } from '@switchboard/redis';
import { waitForJob, type WaitHandle, type WaitOutcome } from './wait.ts';

export interface ProducerOptions {
  /** A `producer` client from createRedis; the caller owns it and closes it after the producer. */
  connection: RedisClient;
  /** The deployment's REDIS_PREFIX (not the BullMQ prefix, which is derived from it). */
  redisPrefix: string;
  logger?: Logger;
  /**
   * Replicas that must hold each batch of adds before its enqueues resolve (REDIS_WAIT_REPLICAS,
   * REDIS_WAIT_TIMEOUT_MS). `WAIT` counts the writes of the connection it is sent on and holds
   * that connection while it waits: give such a producer a connection of its own.
   */
  replicas?: { count: number; timeoutMs: number };
}

export interface EnqueuedJob {
  /** The job's id; for an add that found its deduplication key taken, the holder's. */
  jobId: string;
  /** The add found its deduplication key held by an unfinished job (`jobId`) and added nothing. */
  deduplicated: boolean;
}

/** A job that failed for good (docs/decisions.md#failed-jobs: what operators see without opening Redis). */
export interface FailedJob {
  queue: QueueName;
  id: string;
  name: string;
  attempts: number;
  lastError: string;
  /** Epoch milliseconds. */
  failedAt: number;
}

/** What a retry of one failed job found. */
export type RetryOutcome = 'retried' | 'unknown_job' | 'not_failed';

export interface Producer {
  /**
   * Parses the payload (InvalidJobPayloadError, nothing added), then adds the job; with a
   * derived job id, adding the same work twice adds it once. QueueUnavailableError, without
   * waiting, when Redis is down.
   */
  enqueue<Payload, Input>(
    contract: JobContract<Payload, Input>,
    payload: Input,
    options?: EnqueueOptions,
  ): Promise<EnqueuedJob>;
  /** Enqueues, then waits at most `timeoutMs` for the job to finish. */
  enqueueAndWait<Payload, Input>(
    contract: JobContract<Payload, Input>,
    payload: Input,
    options: EnqueueOptions & { timeoutMs: number },
  ): Promise<WaitOutcome>;
  /**
   * Failed jobs of `queues`, newest failure first, `limit` from `offset` on, and how many there
   * are in all. QueueUnavailableError when Redis is down.
   */
  failedJobs(
    queues: readonly QueueName[],
    offset: number,
    limit: number,
  ): Promise<{ jobs: FailedJob[]; total: number }>;
  /** Jobs of `queue` by state (waiting, active, delayed, failed, completed), for metrics. */
  jobCounts(queue: QueueName): Promise<Record<string, number>>;
  /** Moves a failed job back to waiting with its attempts reset (BullMQ's retry). */
  retryFailedJob(queue: QueueName, jobId: string): Promise<RetryOutcome>;
  /**
   * The BullMQ Queue behind `queue`, for the operator dashboard only (bull-board reads and
   * changes queues through BullMQ's own API). Everything else goes through the typed methods
   * above. The instance may be replaced after a failed enqueue: ask again, do not keep it.
   */
  bullQueue(queue: QueueName): Queue;
  /** Ends pending waits (as `pending`) and closes queues; the connection stays the caller's. */
  close(): Promise<void>;
}

interface PreparedJob {
  contract: AnyJobContract;
  data: unknown;
  options: JobsOptions;
}

/**
 * The request this enqueue runs for (its id) and the enqueue's trace context, when there are:
 * the job carries them to its worker (docs/decisions.md#request-ids-and-traces-across-the-queue).
 */
function originHere(carrier: TraceCarrier | undefined): JobOrigin | undefined {
  const requestId = currentRequestId();
  if (requestId === undefined && carrier?.traceparent === undefined) return undefined;
  return {
    ...(requestId === undefined ? {} : { requestId }),
    ...(carrier?.traceparent === undefined ? {} : { traceparent: carrier.traceparent }),
    ...(carrier?.tracestate ? { tracestate: carrier.tracestate } : {}),
  };
}

/** The parsed payload; InvalidJobPayloadError (and nothing is added) when it does not parse. */
function parsed<Payload, Input>(contract: JobContract<Payload, Input>, payload: Input): Payload {
  const result = contract.payload.safeParse(payload);
  if (!result.success) throw new InvalidJobPayloadError(contract.name, result.error);
  return result.data;
}

function prepare(
  contract: AnyJobContract,
  payload: unknown,
  options: EnqueueOptions,
  carrier: TraceCarrier | undefined,
): PreparedJob {
  const origin = originHere(carrier);
  const data = origin === undefined ? payload : { ...(payload as object), [JOB_ORIGIN_FIELD]: origin };
  return { contract, data, options: toJobOptions(contract, payload, options) };
}

/** Jobs one batch holds at most; each is one add script, so a batch stays a few milliseconds of Redis. */
const MAX_ADDS_PER_BATCH = 100;
/** Batches written at once on the one connection (Redis answers them in order anyway). */
const MAX_ADD_BATCHES_IN_FLIGHT = 4;

/**
 * Adds a batch of jobs to one queue, each with its own add script. They still leave in one
 * write (the client holds a tick's commands: createRedis). Not BullMQ's addBulk: its pipeline
 * copies every script BullMQ defines onto itself when made, and cost the gateway's client more
 * CPU per job than adding them one by one (packages/bench/README.md#redis-and-the-queue).
 */
async function addJobs(queue: Queue, jobs: PreparedJob[]): Promise<Job[]> {
  return Promise.all(jobs.map(({ contract, data, options }) => queue.add(contract.name, data, options)));
}

/**
 * Adds a batch, then waits until `count` replicas hold it: one WAIT per batch, on the same
 * connection, so it covers the batch (and every earlier write). Sent only once the adds have
 * answered: BullMQ sends an add's script after awaits of its own, so a WAIT sent beside them
 * could go first and cover none of them.
 */
async function addJobsReplicated(
  connection: RedisClient,
  queue: Queue,
  jobs: PreparedJob[],
  { count, timeoutMs }: { count: number; timeoutMs: number },
): Promise<Job[]> {
  const added = await addJobs(queue, jobs);
  const confirmed = (await connection.call('WAIT', count, timeoutMs)) as number;
  if (confirmed < count) throw new ReplicationShortfallError(count, confirmed);
  return added;
}

export function createProducer({ connection, redisPrefix, logger, replicas }: ProducerOptions): Producer {
  const cache = createQueueCache(connection, redisPrefix, logger);
  // Not a Set: one add and one delete per waiting request churns a hash table (see InFlight).
  const waits = new InFlight<WaitHandle>();
  /**
   * Per queue, the jobs enqueued in one event-loop round go out together: one write and one
   * round trip for a burst of requests instead of one each (a lone job waits for nothing).
   */
  const adders = new Map<QueueName, (job: PreparedJob) => Promise<Job>>();
  const adderFor = (queue: QueueName) => {
    let adder = adders.get(queue);
    if (!adder) {
      const write =
        replicas && replicas.count > 0
          ? (jobs: PreparedJob[]) => addJobsReplicated(connection, cache.queueFor(queue), jobs, replicas)
          : (jobs: PreparedJob[]) => addJobs(cache.queueFor(queue), jobs);
      adder = createBatcher(write, {
        maxBatch: MAX_ADDS_PER_BATCH,
        maxInFlight: MAX_ADD_BATCHES_IN_FLIGHT,
      });
      adders.set(queue, adder);
    }
    return adder;
  };

  /** Adds one job in a producer span whose context the job carries to its worker. */
  function send(contract: AnyJobContract, payload: unknown, options: EnqueueOptions): Promise<EnqueuedJob> {
    return tracedSend(contract.queue, contract.name, async (carrier, sent) => {
      const enqueued = await add(prepare(contract, payload, options, carrier));
      sent(enqueued.jobId);
      return enqueued;
    });
  }

  async function add(prepared: PreparedJob): Promise<EnqueuedJob> {
    const { contract } = prepared;
    await whenRedisReady(connection).catch((error: unknown) => {
      throw new QueueUnavailableError(contract.queue, error);
    });
    try {
      const job = await adderFor(contract.queue)(prepared);
      if (!job.id) throw new Error(`Queue "${contract.queue}" returned a job without id`);
      const { deduplication, jobId } = prepared.options;
      return { jobId: job.id, deduplicated: deduplication !== undefined && job.id !== jobId };
    } catch (error) {
      if (error instanceof ReplicationShortfallError) {
        // On the master but maybe on no replica: a failover now could lose it. Not promised.
        throw new QueueUnavailableError(contract.queue, error, { jobMayExist: true, reason: error.message });
      }
      if (connection.status === 'ready' && !isRedisUnavailable(error)) throw error;
      // Sent, then the connection dropped or the answer timed out: Redis may have added it.
      throw new QueueUnavailableError(contract.queue, error, { jobMayExist: true });
    }
  }

  async function enqueueAndWait<Payload, Input>(
    contract: JobContract<Payload, Input>,
    payload: Input,
    { timeoutMs, ...options }: EnqueueOptions & { timeoutMs: number },
  ): Promise<WaitOutcome> {
    const data = parsed(contract, payload);
    // Listening starts before the job exists, so its events cannot be missed.
    const events = await cache.eventsFor(contract.queue).catch((error: unknown) => {
      throw new QueueUnavailableError(contract.queue, error);
    });
    const { jobId } = await send(contract, data, options);
    const wait = waitForJob(cache.queueFor(contract.queue), events, jobId, timeoutMs);
    waits.add(wait);
    try {
      return await wait.outcome;
    } finally {
      waits.delete(wait);
    }
  }

  /** Runs a read or change on `queue`, reporting Redis trouble as QueueUnavailableError. */
  async function onQueue<T>(queue: QueueName, work: (target: Queue) => Promise<T>): Promise<T> {
    try {
      return await work(cache.queueFor(queue));
    } catch (error) {
      if (isRedisUnavailable(error)) throw new QueueUnavailableError(queue, error);
      throw error;
    }
  }

  const failedOfQueue = (queue: QueueName, offset: number, limit: number) =>
    onQueue(queue, async (target) => {
      const [jobs, total] = await Promise.all([target.getFailed(offset, offset + limit - 1), target.getFailedCount()]);
      return {
        total,
        jobs: jobs
          .filter((job) => job?.id !== undefined)
          .map((job) => ({
            queue,
            id: job.id!,
            name: job.name,
            attempts: job.attemptsMade,
            lastError: job.failedReason ?? '',
            failedAt: job.finishedOn ?? job.processedOn ?? job.timestamp,
          })),
      };
    });

  /**
   * One queue: the page itself. Several: each queue's first `offset + limit`, merged by failure
   * time, then the page, so pages stay exact across queues.
   */
  const failedJobs: Producer['failedJobs'] = async (queues, offset, limit) => {
    if (queues.length === 1) return failedOfQueue(queues[0]!, offset, limit);
    const pages = await Promise.all(queues.map((queue) => failedOfQueue(queue, 0, offset + limit)));
    const merged = pages.flatMap((page) => page.jobs).sort((a, b) => b.failedAt - a.failedAt);
    return { jobs: merged.slice(offset, offset + limit), total: pages.reduce((sum, page) => sum + page.total, 0) };
  };

  const retryFailedJob: Producer['retryFailedJob'] = (queue, jobId) =>
    onQueue(queue, async (target) => {
      const job = await target.getJob(jobId);
      if (!job) return 'unknown_job';
      if ((await job.getState()) !== 'failed') return 'not_failed';
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      return 'retried';
    });

  const jobCounts: Producer['jobCounts'] = (queue) =>
    onQueue(queue, (target) => target.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'));

  return {
    enqueue: async (contract, payload, options = {}) => send(contract, parsed(contract, payload), options),
    failedJobs,
    jobCounts,
    retryFailedJob,
    enqueueAndWait,
    bullQueue: (queue) => cache.queueFor(queue),
    close: async () => {
      for (const wait of waits) wait.abandon();
      await cache.close();
    },
  };
}
