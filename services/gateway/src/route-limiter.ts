import type { RequestHandler } from 'express';
import { RATE_LIMIT_BUCKETS, type RateLimitBucket, type RateLimitBucketName } from '@switchboard/contracts';
import { failureBudget, rateLimit, redisKeyClock, type FailureBudget } from '@switchboard/http';
import type { Logger } from '@switchboard/logger';
import { Counter, type Registry } from '@switchboard/metrics';
import type { GatewayConfig } from './config.ts';
import type { RedisClient } from '@switchboard/redis';

/** The rate limiter of one bucket, for a route. */
export type RouteLimiter = (bucket: RateLimitBucketName) => RequestHandler;

interface LimiterDeps {
  config: Pick<
    GatewayConfig,
    | 'REDIS_PREFIX'
    | 'RATE_LIMITS_ENABLED'
    | 'TRUSTED_PROXY_HOPS'
    | 'RATE_LIMIT_TIMEOUT_MS'
    | 'RATE_LIMIT_CLOCK_KEY'
    | 'AUTH_FAILURE_BUDGET'
    | 'AUTH_FAILURE_WINDOW_MS'
  >;
  redis: RedisClient;
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
 * The rate-limit table as this gateway enforces it: the address's failure budget sized by
 * configuration. Discovery publishes this, so what is published is what is enforced.
 */
export function configuredBuckets(
  config: Pick<GatewayConfig, 'AUTH_FAILURE_BUDGET' | 'AUTH_FAILURE_WINDOW_MS'>,
): Record<RateLimitBucketName, RateLimitBucket> {
  const budget = {
    ...RATE_LIMIT_BUCKETS['auth:failures'],
    limit: config.AUTH_FAILURE_BUDGET,
    windowMs: config.AUTH_FAILURE_WINDOW_MS,
  };
  return { ...RATE_LIMIT_BUCKETS, 'auth:failures': budget };
}

/**
 * The client address's budget of failures that prove nothing about the caller (bucket
 * `auth:failures`): an unknown admin key, an unknown webhook, a wrong token. Shared by the
 * admin and execution routes: it lives in Redis, so every router and replica building one
 * counts against the same budget.
 */
export function authFailures(deps: LimiterDeps): FailureBudget {
  return failureBudget({ ...sharedOptions(deps), bucket: configuredBuckets(deps.config)['auth:failures'] });
}

/**
 * A webhook's budget of refused executions by callers holding its token (bucket
 * `webhook:failures::webhook_id`), per client address like the webhook's other buckets: a
 * broken integration slows itself, not the other webhooks its sender delivers from the same
 * address, and one who learnt a token (but not the webhook's secret) cannot spend the budget of
 * the sender's addresses.
 */
export function webhookFailures(deps: LimiterDeps): FailureBudget {
  return failureBudget({ ...sharedOptions(deps), bucket: RATE_LIMIT_BUCKETS['webhook:failures::webhook_id'] });
}
