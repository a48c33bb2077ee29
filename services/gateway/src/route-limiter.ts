import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { RateLimitBucketName } from '@switchboard/contracts';
import { failureBudget, rateLimit, redisKeyClock, type FailureBudget } from '@switchboard/http';
import type { Logger } from '@switchboard/logger';
import { Counter, type Registry } from '@switchboard/metrics';
import type { GatewayConfig } from './config.ts';

/** The rate limiter of one bucket, for a route. */
export type RouteLimiter = (bucket: RateLimitBucketName) => RequestHandler;

interface LimiterDeps {
  config: Pick<
    GatewayConfig,
    'REDIS_PREFIX' | 'RATE_LIMITS_ENABLED' | 'TRUSTED_PROXY_HOPS' | 'RATE_LIMIT_TIMEOUT_MS' | 'RATE_LIMIT_CLOCK_KEY'
  >;
  redis: Redis;
  logger: Logger;
  metrics: Registry;
}

const REFUSALS = 'rate_limit_refusals_total';

/**
 * 429s by bucket name, one counter per registry however many routers build limiters (each
 * router builds its own, and prom-client refuses a second metric of the same name).
 */
function refusalCounter(registry: Registry): Counter<'bucket' | 'global'> {
  const existing = registry.getSingleMetric(REFUSALS) as Counter<'bucket' | 'global'> | undefined;
  return (
    existing ??
    new Counter({
      name: REFUSALS,
      help: 'Requests refused with 429, by rate-limit bucket; global="true" when the per-identity global bucket refused.',
      labelNames: ['bucket', 'global'] as const,
      registers: [registry],
    })
  );
}

/** What every limiter of the gateway shares: prefix, on/off switch, proxy hops, bound, clock, refusal count. */
function sharedOptions({ config, redis, logger, metrics }: LimiterDeps) {
  const clockKey = config.RATE_LIMIT_CLOCK_KEY;
  const refusals = refusalCounter(metrics);
  return {
    redis,
    prefix: config.REDIS_PREFIX,
    enabled: config.RATE_LIMITS_ENABLED,
    trustedProxyHops: config.TRUSTED_PROXY_HOPS,
    timeoutMs: config.RATE_LIMIT_TIMEOUT_MS,
    clock: clockKey === undefined ? undefined : redisKeyClock(redis, `${config.REDIS_PREFIX}:${clockKey}`),
    logger,
    onRefused: (bucket: string, global: boolean) => refusals.inc({ bucket, global: String(global) }),
  };
}

/** Every router limits its routes the same way; only the bucket varies. */
export function routeLimiter(deps: LimiterDeps): RouteLimiter {
  const shared = sharedOptions(deps);
  return (bucket) => rateLimit({ ...shared, bucket });
}

/**
 * The per-client-IP budget of failed credential and webhook attempts (bucket `auth:failures`),
 * shared by the admin and execution routes: it lives in Redis, so every router and replica
 * building one counts against the same budget.
 */
export function authFailures(deps: LimiterDeps): FailureBudget {
  return failureBudget({ ...sharedOptions(deps), bucket: 'auth:failures' });
}
