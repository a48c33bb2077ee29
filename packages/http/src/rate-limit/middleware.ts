import type { RequestHandler } from 'express';
import type { Cluster, Redis } from 'ioredis';
import { createLogger, type Logger } from '@switchboard/logger';
import {
  GLOBAL_RATE_LIMIT,
  rateLimitBucket,
  type RateLimitBucket,
  type RateLimitBucketName,
} from '@switchboard/contracts';
import { assertValidBucket, resolveBucketKey } from './bucket-key.ts';
import { defaultRateLimitIdentity, type RateLimitIdentity } from './identity.ts';
import { checkRateLimit, type RateLimitCheck, type RateLimitClock, type RateLimitDecision } from './limiter.ts';
import { sendRateLimited, setRateLimitHeaders } from './response.ts';

export interface RateLimitOptions {
  redis: Redis | Cluster;
  /** REDIS_PREFIX: keys are `<prefix>:rl:{<identity>}:<bucket>`. */
  prefix: string;
  /** A name from RATE_LIMIT_BUCKETS, or a bucket of its own (tests, one-off routes). */
  bucket: RateLimitBucketName | RateLimitBucket;
  /** Off only when configuration says so explicitly (RATE_LIMITS_ENABLED=false). */
  enabled?: boolean;
  /** Default: the identity set by setRateLimitIdentity(), else `ip:<client address>`. */
  identity?: RateLimitIdentity;
  /** Reverse proxies in front of the gateway, for the default identity (TRUSTED_PROXY_HOPS). */
  trustedProxyHops?: number;
  /** The per-identity global bucket; default GLOBAL_RATE_LIMIT (50 per second). */
  global?: RateLimitBucket;
  /** How long a request may wait for Redis before it is let through unlimited. */
  timeoutMs?: number;
  /** Default: Redis server time. Tests inject one (see RateLimitClock). */
  clock?: RateLimitClock;
  logger?: Logger;
  /**
   * Told of every 429 this limiter answers: the bucket's name (a template such as
   * `webhook:execute::webhook_id`, never a resolved key) and whether the global bucket refused.
   */
  onRefused?: (bucket: string, global: boolean) => void;
}

export const DEFAULT_RATE_LIMIT_TIMEOUT_MS = 500;

/** At most one "failing open" warning per Redis client per interval, not one per request. */
const WARNING_INTERVAL_MS = 10_000;
const lastWarningAt = new WeakMap<Redis | Cluster, number>();
let fallbackLogger: Logger | undefined;
const DOWN = new Set<(Redis | Cluster)['status']>(['reconnecting', 'close', 'end']);

/**
 * Express middleware admitting a request against its bucket and the identity's global
 * bucket (see gcra-script.ts for the algorithm and the semantics of the two together).
 * Sets X-RateLimit-* on every response it lets through and answers 429 itself. When Redis
 * is unreachable or slow it lets the request through: a dead Redis must not take the API
 * down with it.
 */
export function rateLimit(options: RateLimitOptions): RequestHandler {
  if (options.enabled === false) return (_req, _res, next) => next();
  const bucket = typeof options.bucket === 'string' ? rateLimitBucket(options.bucket) : options.bucket;
  const global = bucket.countsTowardGlobal ? (options.global ?? GLOBAL_RATE_LIMIT) : null;
  assertValidBucket(bucket);
  if (global) assertValidBucket(global);
  const identify = options.identity ?? defaultRateLimitIdentity(options.trustedProxyHops ?? 0);
  const timeoutMs = options.timeoutMs ?? DEFAULT_RATE_LIMIT_TIMEOUT_MS;
  const logger = limiterLogger(options);

  return async (req, res, next) => {
    const check: RateLimitCheck = {
      identity: identify(req, res),
      bucketKey: resolveBucketKey(bucket, req.params),
      bucket,
      global,
    };
    const decision = await decideOrFailOpen(options, check, timeoutMs, logger);
    if (decision === null) return next();
    if (decision.allowed) {
      setRateLimitHeaders(res, decision, check.bucketKey);
      return next();
    }
    options.onRefused?.(bucket.name, decision.global);
    sendRateLimited(res, decision, check.bucketKey);
  };
}

export function limiterLogger(options: Pick<RateLimitOptions, 'logger'>): Logger {
  if (options.logger) return options.logger;
  fallbackLogger ??= createLogger('rate-limit');
  return fallbackLogger;
}

/** The decision, or null (let the request through) when Redis does not answer in time. */
export async function decideOrFailOpen(
  { redis, prefix, clock }: Pick<RateLimitOptions, 'redis' | 'prefix' | 'clock'>,
  check: RateLimitCheck,
  timeoutMs: number,
  logger: Logger,
  peek = false,
): Promise<RateLimitDecision | null> {
  // Known to be down: don't make the request wait for a reconnect (a client still making
  // its first connection gets the command, bounded by the timeout).
  if (DOWN.has(redis.status)) {
    warnFailingOpen(redis, logger, check, `redis connection is ${redis.status}`);
    return null;
  }
  try {
    return await withTimeout(checkRateLimit(redis, prefix, check, clock, { peek }), timeoutMs);
  } catch (error) {
    warnFailingOpen(redis, logger, check, error instanceof Error ? error.message : String(error));
    return null;
  }
}

function warnFailingOpen(redis: Redis | Cluster, logger: Logger, check: RateLimitCheck, reason: string): void {
  const now = Date.now();
  if (now - (lastWarningAt.get(redis) ?? -Infinity) < WARNING_INTERVAL_MS) return;
  lastWarningAt.set(redis, now);
  logger.warn({ bucket: check.bucket.name, reason }, 'rate limiter unavailable, letting requests through');
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from redis within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
