import type { Cluster, Redis } from 'ioredis';
import type { RateLimitBucket } from '@switchboard/contracts';
import { GCRA_LUA } from './gcra-script.ts';

/** The outcome of one request against its route bucket and the global bucket. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Limit of the bucket described: the route's, or the global one's when `global`. */
  limit: number;
  /** Whole requests still admissible right now (floor); 0 when refused. */
  remaining: number;
  /** Unix seconds (ceiling) at which the described bucket is fully drained. */
  resetUnixSeconds: number;
  /** Milliseconds until the described bucket is fully drained (X-RateLimit-Reset-After). */
  resetAfterMs: number;
  /** Milliseconds until a retry would be admitted; 0 when allowed. */
  retryAfterMs: number;
  /** True when the global limit is what refused the request. */
  global: boolean;
}

export interface RateLimitCheck {
  identity: string;
  /** The bucket's name with its `:param` placeholders already filled in. */
  bucketKey: string;
  bucket: RateLimitBucket;
  /** The global bucket to count against, or null for routes exempt from it. */
  global: RateLimitBucket | null;
}

/**
 * Where the limiter's "now" comes from, in whole microseconds. Undefined (the default, and
 * every production deployment) means Redis server time, read inside the script. Tests inject
 * a clock they move themselves, so that what a bucket admits never depends on how fast the
 * machine runs.
 */
export type RateLimitClock = () => Promise<number | undefined>;

/**
 * Never rename: the name is how ioredis caches the script per connection. The SHA changes
 * with the script text on its own, so editing the script is safe across a rolling deploy.
 */
const COMMAND = 'switchboardGcra';

type GcraReply = [number, number, number, number, number, number, number];
type WithGcra = {
  [COMMAND]: (routeKey: string, globalKey: string, ...args: Array<number | string>) => Promise<GcraReply>;
};

const clientsWithCommand = new WeakSet<Redis | Cluster>();

/** Adds the script command to a client once; ioredis then sends EVALSHA, EVAL on NOSCRIPT. */
function withGcra(redis: Redis | Cluster): WithGcra {
  if (!clientsWithCommand.has(redis)) {
    redis.defineCommand(COMMAND, { lua: GCRA_LUA, numberOfKeys: 2 });
    clientsWithCommand.add(redis);
  }
  return redis as unknown as WithGcra;
}

/**
 * `<prefix>:rl:{<identity>}:<bucket>`. The braces are a Redis Cluster hash tag: both keys
 * of one script call land in the same slot. They also keep an identity's colons (IPv6)
 * from running into the bucket name.
 */
export function rateLimitKey(prefix: string, identity: string, bucketKey: string): string {
  return `${prefix}:rl:{${identity}}:${bucketKey}`;
}

/**
 * Decides `check` and, unless `peek`, counts it: a peek answers whether one more request
 * would be admitted and leaves the buckets as they were.
 */
export async function checkRateLimit(
  redis: Redis | Cluster,
  prefix: string,
  check: RateLimitCheck,
  clock?: RateLimitClock,
  { peek = false }: { peek?: boolean } = {},
): Promise<RateLimitDecision> {
  const { identity, bucketKey, bucket, global } = check;
  const nowMicros = await clock?.();
  const reply = await withGcra(redis)[COMMAND](
    rateLimitKey(prefix, identity, bucketKey),
    rateLimitKey(prefix, identity, global?.name ?? 'global'),
    bucket.limit,
    bucket.windowMs,
    global?.limit ?? 0,
    global?.windowMs ?? 0,
    nowMicros === undefined ? '' : Math.trunc(nowMicros),
    peek ? '1' : '0',
  );
  const [allowed, limit, remaining, resetUnixSeconds, retryAfterMicros, hitGlobal, resetAfterMicros] = reply;
  return {
    allowed: allowed === 1,
    limit,
    remaining,
    resetUnixSeconds,
    resetAfterMs: resetAfterMicros / 1000,
    retryAfterMs: retryAfterMicros / 1000,
    global: hitGlobal === 1,
  };
}

/**
 * A clock read from a Redis key holding whole microseconds, for processes whose tests move
 * time from the outside (the gateway's RATE_LIMIT_CLOCK_KEY). Redis time while the key is unset.
 */
export function redisKeyClock(redis: Redis | Cluster, key: string): RateLimitClock {
  return async () => {
    const value = await redis.get(key);
    return value === null ? undefined : Number(value);
  };
}
