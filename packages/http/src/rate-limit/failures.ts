import type { Request, RequestHandler } from 'express';
import type { RateLimitBucket } from '@switchboard/contracts';
import { clientIp } from '../client-ip.ts';
import { assertValidBucket, resolveBucketKey } from './bucket-key.ts';
import { ipRateLimitIdentity } from './identity.ts';
import type { RateLimitCheck } from './limiter.ts';
import { decideOrFailOpen, DEFAULT_RATE_LIMIT_TIMEOUT_MS, limiterLogger, type RateLimitOptions } from './middleware.ts';
import { sendRateLimited } from './response.ts';

/** Route parameters, for a bucket or an identity keyed by one (`::webhook_id`). */
type Params = Record<string, unknown>;

/**
 * A budget of failed attempts: `guard` refuses a caller whose budget is spent with a 429
 * before anything costly runs (a database lookup, reading a 25 MiB body); `recordFailure`
 * spends one unit once an attempt has failed. Successful requests spend nothing, so a busy
 * well-behaved client is never slowed by it, while guessing credentials or ids costs the
 * guesser, not the database. The budget is the client address's, one per bucket key: a
 * bucket keyed by a route parameter (`::webhook_id`) gives an address one budget per value.
 */
export interface FailureBudget {
  guard: RequestHandler;
  /**
   * Spends one unit. `params`: the route's parameters, for a budget keyed by one; default
   * `req.params` (an error handler mounted with `use` sees none: pass them).
   */
  recordFailure(req: Request, params?: Params): Promise<void>;
}

export type FailureBudgetOptions = Omit<RateLimitOptions, 'bucket' | 'identity' | 'global'> & {
  bucket: RateLimitBucket;
};

export function failureBudget(options: FailureBudgetOptions): FailureBudget {
  if (options.enabled === false) return { guard: (_req, _res, next) => next(), recordFailure: async () => {} };
  const { bucket } = options;
  assertValidBucket(bucket);
  const timeoutMs = options.timeoutMs ?? DEFAULT_RATE_LIMIT_TIMEOUT_MS;
  const logger = limiterLogger(options);
  const checkFor = (req: Request, params: Params): RateLimitCheck => ({
    identity: ipRateLimitIdentity(clientIp(req, options.trustedProxyHops ?? 0)),
    bucketKey: resolveBucketKey(bucket, params),
    bucket,
    global: null,
  });
  return {
    guard: async (req, res, next) => {
      const check = checkFor(req, req.params);
      const decision = await decideOrFailOpen(options, check, timeoutMs, logger, true);
      if (decision === null || decision.allowed) return next();
      options.onRefused?.(bucket.name, false);
      sendRateLimited(res, decision, check.bucketKey);
    },
    recordFailure: async (req, params = req.params) => {
      await decideOrFailOpen(options, checkFor(req, params), timeoutMs, logger);
    },
  };
}
