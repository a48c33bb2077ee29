import type { JobsOptions } from 'bullmq';
import type { AnyJobContract, RetentionPolicy } from '@switchboard/contracts';

export {
  COMPLETED_JOB_RETENTION,
  FAILED_JOB_RETENTION,
  DEFAULT_JOB_ATTEMPTS,
  DEFAULT_JOB_BACKOFF,
} from '@switchboard/contracts';

/**
 * BullMQ's key prefix for a deployment: `${REDIS_PREFIX}:bull`. Producers and workers both
 * derive it here from REDIS_PREFIX, so they always agree, and deployments (or test files)
 * sharing one Redis never see each other's queues.
 *
 * On a Redis Cluster (`on.connection` is one), `${REDIS_PREFIX}:bull:{<queue>}`: BullMQ's
 * scripts touch several keys of a queue at once, which a cluster refuses unless they share a
 * slot; the hash tag gives each queue a slot of its own, so queues spread over the masters.
 * Nothing spans two queues (no flows). A single server keeps the prefix it always had, so jobs
 * queued before an upgrade are still found (docs/decisions.md#redis-cluster).
 */
export function bullPrefix(redisPrefix: string, on: { queue: string; connection: { isCluster: boolean } }): string {
  return on.connection.isCluster ? `${redisPrefix}:bull:{${on.queue}}` : `${redisPrefix}:bull`;
}

/** Per-call options of an enqueue; everything else comes from the contract. */
export interface EnqueueOptions {
  /** Wait this long before the job may run. */
  delayMs?: number;
  /** Overrides the contract's derived id (still prefixed with the job name). */
  jobId?: string;
}

function retention({ ageSeconds, count }: RetentionPolicy): { age: number; count: number } {
  return { age: ageSeconds, count };
}

/**
 * `<job name>-<derived id>`: BullMQ rejects all-digit custom ids (snowflakes are) and ids
 * with `:`; the name also keeps two jobs derived from the same row apart. Whoever looks a job
 * up by the row or message it was derived from (the sweeps) goes through here too.
 */
export function jobIdOf(contract: AnyJobContract, derived: string): string {
  if (derived === '' || derived.includes(':')) {
    throw new Error(`Job "${contract.name}": derived job id must be non-empty and contain no ':'`);
  }
  return `${contract.name}-${derived}`;
}

/** The id of `contract`'s job for `payload` (or for `override`), none when the contract derives none. */
export function jobIdFor(contract: AnyJobContract, payload: unknown, override?: string): string | undefined {
  const derived = override ?? contract.jobId?.(payload);
  return derived === undefined ? undefined : jobIdOf(contract, derived);
}

export function toJobOptions(contract: AnyJobContract, payload: unknown, options: EnqueueOptions = {}): JobsOptions {
  const { attempts, backoff, removeOnComplete, removeOnFail } = contract.defaults;
  const jobId = jobIdFor(contract, payload, options.jobId);
  const deduplicationId = contract.deduplicationId?.(payload);
  return {
    attempts,
    backoff: { type: backoff.type, delay: backoff.delayMs },
    removeOnComplete: retention(removeOnComplete),
    removeOnFail: retention(removeOnFail),
    ...(options.delayMs ? { delay: options.delayMs } : {}),
    ...(jobId ? { jobId } : {}),
    // Without a ttl the key lasts until the job completes or fails for good.
    ...(deduplicationId === undefined ? {} : { deduplication: { id: deduplicationId } }),
  };
}
