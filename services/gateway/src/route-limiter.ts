import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { RateLimitBucketName } from '@switchboard/contracts';
import { rateLimit, redisKeyClock } from '@switchboard/http';
import type { Logger } from '@switchboard/logger';
import type { GatewayConfig } from './config.ts';

/** The rate limiter of one bucket, for a route. */
export type RouteLimiter = (bucket: RateLimitBucketName) => RequestHandler;

/**
 * Every router limits its routes the same way: the deployment's Redis prefix, the explicit
 * on/off switch and the trusted proxy hops that find the client IP. Only the bucket varies.
 */
export function routeLimiter(deps: {
  config: Pick<
    GatewayConfig,
    'REDIS_PREFIX' | 'RATE_LIMITS_ENABLED' | 'TRUSTED_PROXY_HOPS' | 'RATE_LIMIT_TIMEOUT_MS' | 'RATE_LIMIT_CLOCK_KEY'
  >;
  redis: Redis;
  logger: Logger;
}): RouteLimiter {
  const { config, redis, logger } = deps;
  const clockKey = config.RATE_LIMIT_CLOCK_KEY;
  const clock = clockKey === undefined ? undefined : redisKeyClock(redis, `${config.REDIS_PREFIX}:${clockKey}`);
  return (bucket) =>
    rateLimit({
      redis,
      prefix: config.REDIS_PREFIX,
      bucket,
      enabled: config.RATE_LIMITS_ENABLED,
      trustedProxyHops: config.TRUSTED_PROXY_HOPS,
      timeoutMs: config.RATE_LIMIT_TIMEOUT_MS,
      clock,
      logger,
    });
}
