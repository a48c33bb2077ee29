import type { Request, RequestHandler } from 'express';
import { rateLimitBucket, type RateLimitBucketName } from '@switchboard/contracts';
import { clientIp } from '../client-ip.ts';
import { ipRateLimitIdentity } from './identity.ts';
import type { RateLimitCheck } from './limiter.ts';
import { decideOrFailOpen, DEFAULT_RATE_LIMIT_TIMEOUT_MS, limiterLogger, type RateLimitOptions } from './middleware.ts';
import { sendRateLimited } from './response.ts';

/**
 * A budget of failed attempts per client IP (unknown credentials, unknown webhooks, invalid
 * bodies): `guard` refuses a client whose budget is spent with a 429 before anything costly
 * runs (a database lookup, reading a 25 MiB body); `recordFailure` spends one unit once an
 * attempt has failed. Successful requests spend nothing, so a busy well-behaved client is never
 * slowed by it, while guessing credentials or ids costs the guesser, not the database.
 */
export interface FailureBudget {
  guard: RequestHandler;
  recordFailure(req: Request): Promise<void>;
}

export type FailureBudgetOptions = Omit<RateLimitOptions, 'bucket' | 'identity' | 'global'> & { bucket: RateLimitBucketName };

export function failureBudget(options: FailureBudgetOptions): FailureBudget {
  if (options.enabled === false) return { guard: (_req, _res, next) => next(), recordFailure: async () => {} };
  const bucket = rateLimitBucket(options.bucket);
  const timeoutMs = options.timeoutMs ?? DEFAULT_RATE_LIMIT_TIMEOUT_MS;
  const logger = limiterLogger(options);
  const checkFor = (req: Request): RateLimitCheck => ({
    identity: ipRateLimitIdentity(clientIp(req, options.trustedProxyHops ?? 0)),
    bucketKey: bucket.name,
    bucket,
    global: null,
  });
  return {
    guard: async (req, res, next) => {
      const decision = await decideOrFailOpen(options, checkFor(req), timeoutMs, logger, true);
      if (decision === null || decision.allowed) return next();
      options.onRefused?.(bucket.name, false);
      sendRateLimited(res, decision, bucket.name);
    },
    recordFailure: async (req) => {
      await decideOrFailOpen(options, checkFor(req), timeoutMs, logger);
    },
  };
}
