import type { Limits, RateLimitBucket } from '@switchboard/contracts';

/** `maxUserIds` → `max_user_ids`; the wire is snake_case like the rest of the document. */
function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [snakeCase(key), snakeCaseKeys(field)]));
}

function bucketWire(bucket: RateLimitBucket) {
  return { limit: bucket.limit, window_ms: bucket.windowMs, counts_toward_global: bucket.countsTowardGlobal };
}

/**
 * Our extension of the document (`service_limits`; Fluxer clients ignore unknown keys): the
 * whole limits table in snake_case (body sizes in bytes, counts, page-size ranges) and every
 * rate-limit bucket. Derived, never restated, so what is published is what is enforced.
 */
export function serviceLimitsFrom(
  limits: Omit<Limits, 'bulk'> & { bulk: { maxUserIds: number } },
  rateLimits: { enabled: boolean; buckets: Record<string, RateLimitBucket>; global: RateLimitBucket },
) {
  return {
    ...(snakeCaseKeys(limits) as Record<string, unknown>),
    rate_limits: {
      enabled: rateLimits.enabled,
      global: { limit: rateLimits.global.limit, window_ms: rateLimits.global.windowMs },
      buckets: Object.fromEntries(Object.values(rateLimits.buckets).map((bucket) => [bucket.name, bucketWire(bucket)])),
    },
  };
}
