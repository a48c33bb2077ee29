import { z } from 'zod';

/**
 * The queue families of the product; each worker deployment consumes one of them.
 * These strings are the Redis key names of the queues: renaming one strands every job still
 * waiting under the old name. Add the new name, drain the old queue, then remove it.
 */
export const QUEUES = {
  archiveExports: 'archive-exports',
  assetPurges: 'asset-purges',
  bulkOperations: 'bulk-operations',
  webhookDeliveries: 'webhook-deliveries',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface BackoffPolicy {
  /** `exponential`: delayMs, 2 × delayMs, 4 × delayMs … ; `fixed`: delayMs every time. */
  type: 'exponential' | 'fixed';
  delayMs: number;
}

/** How long finished jobs stay in Redis: whichever limit is reached first evicts them. */
export interface RetentionPolicy {
  ageSeconds: number;
  count: number;
}

export interface JobDefaults {
  /** Total tries, the first one included. */
  attempts: number;
  backoff: BackoffPolicy;
  removeOnComplete: RetentionPolicy;
  removeOnFail: RetentionPolicy;
}

/**
 * One job: where it runs, what it carries and how it is retried. The producer parses the
 * payload with `payload` before enqueueing; the worker parses it again before handling it.
 * Payloads carry ids (claim check), never secrets or whole rows.
 */
export interface JobContract<Payload = unknown, Input = Payload, Name extends string = string> {
  readonly queue: QueueName;
  /** Stored with every job and used to dispatch it: renaming strands waiting jobs, as for queues. */
  readonly name: Name;
  readonly payload: z.ZodType<Payload, Input>;
  readonly defaults: JobDefaults;
  /**
   * Derives the job id from the parsed payload, so enqueueing the same work twice adds one
   * job. The queue prefixes it with the job name; it must not contain `:`.
   */
  readonly jobId?: (payload: Payload) => string;
  /**
   * The key under which Redis drops a second add of the same work while the first job is
   * unfinished (BullMQ's deduplication, in the add's own script), when the payload has one.
   * Only with a derived `jobId`: a dropped add is told by the holder's id coming back.
   */
  readonly deduplicationId?: (payload: Payload) => string | undefined;
}

/**
 * Any contract, whatever its payload, for collections of contracts (`any`, not `unknown`:
 * a function-typed `jobId` makes contracts invariant in their payload).
 */
// biome-ignore lint/suspicious/noExplicitAny: invariant in its payload, no other type admits every contract
export type AnyJobContract = JobContract<any, any, string>;

/** Finished jobs are kept a day (for inspection and enqueue-and-wait), at most a thousand. */
export const COMPLETED_JOB_RETENTION: RetentionPolicy = { ageSeconds: 24 * 60 * 60, count: 1000 };
/** Failed jobs are kept a week so an operator can see why, at most ten thousand. */
export const FAILED_JOB_RETENTION: RetentionPolicy = { ageSeconds: 7 * 24 * 60 * 60, count: 10_000 };
export const DEFAULT_JOB_ATTEMPTS = 5;
/** 1 s, 2 s, 4 s, 8 s: rides out a Redis failover or a database restart. */
export const DEFAULT_JOB_BACKOFF: BackoffPolicy = { type: 'exponential', delayMs: 1000 };

const JOB_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Where every job's data carries its origin, beside the payload's own fields: no payload
 * schema may declare it (defineJob refuses one that does), and each strips it when it parses,
 * so handlers never see it. A job added without one (by an older producer, or outside a
 * request with tracing off) has none.
 */
export const JOB_ORIGIN_FIELD = '_origin';

/**
 * What a job carries of the request that enqueued it, for following that request across
 * processes (docs/decisions.md#request-ids-and-traces-across-the-queue): its `X-Request-Id`
 * (the same rule as the gateway's), and the W3C trace context of the enqueue when tracing is on.
 */
export const jobOriginSchema = z.object({
  requestId: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/)
    .optional(),
  traceparent: z
    .string()
    .regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/)
    .optional(),
  tracestate: z.string().max(512).optional(),
});

export type JobOrigin = z.infer<typeof jobOriginSchema>;

/** The origin a job's data carries, or undefined when it has none or one that does not parse. */
export function jobOriginOf(data: unknown): JobOrigin | undefined {
  const field = (data as Record<string, unknown> | null | undefined)?.[JOB_ORIGIN_FIELD];
  if (field === undefined) return undefined;
  const parsed = jobOriginSchema.safeParse(field);
  return parsed.success ? parsed.data : undefined;
}

export interface JobDefinition<Payload, Input, Name extends string> {
  queue: QueueName;
  name: Name;
  payload: z.ZodType<Payload, Input>;
  defaults?: Partial<JobDefaults>;
  jobId?: (payload: Payload) => string;
  deduplicationId?: (payload: Payload) => string | undefined;
}

/** Builds a contract, filling the defaults it does not set. */
export function defineJob<Payload, Input, const Name extends string>(
  definition: JobDefinition<Payload, Input, Name>,
): JobContract<Payload, Input, Name> {
  if (!JOB_NAME.test(definition.name)) {
    throw new Error(`Job name "${definition.name}" must be lower-case letters, digits and dashes`);
  }
  const defaults: JobDefaults = {
    attempts: DEFAULT_JOB_ATTEMPTS,
    backoff: DEFAULT_JOB_BACKOFF,
    removeOnComplete: COMPLETED_JOB_RETENTION,
    removeOnFail: FAILED_JOB_RETENTION,
    ...definition.defaults,
  };
  if (definition.payload instanceof z.ZodObject && JOB_ORIGIN_FIELD in definition.payload.shape) {
    throw new Error(`Job "${definition.name}": ${JOB_ORIGIN_FIELD} is the job's origin, not a payload field`);
  }
  if (definition.deduplicationId && !definition.jobId) {
    // The producer tells an add that found the key taken by the holder's id coming back.
    throw new Error(`Job "${definition.name}": a deduplicating job must derive its job id`);
  }
  if (!Number.isInteger(defaults.attempts) || defaults.attempts < 1) {
    throw new Error(`Job "${definition.name}": attempts must be a whole number of at least 1`);
  }
  return Object.freeze({
    queue: definition.queue,
    name: definition.name,
    payload: definition.payload,
    defaults: Object.freeze(defaults),
    ...(definition.jobId ? { jobId: definition.jobId } : {}),
    ...(definition.deduplicationId ? { deduplicationId: definition.deduplicationId } : {}),
  });
}
