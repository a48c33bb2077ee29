import type { RateLimitBucket } from '@switchboard/contracts';

const PLACEHOLDER = /::([A-Za-z_][A-Za-z0-9_]*)/g;

/** Longer path values are not ids anyway (validation later refuses them); cap the key size. */
const MAX_PARAM_LENGTH = 64;

/**
 * The bucket name with each `::param` replaced by `:<value of that route parameter>`, so
 * `webhook:execute::webhook_id` on `/webhooks/123/…` is `webhook:execute:123`. A missing
 * parameter is a wiring mistake (the route's parameter is named differently): it throws.
 */
export function resolveBucketKey(bucket: RateLimitBucket, params: Record<string, unknown>): string {
  return bucket.name.replace(PLACEHOLDER, (_match, name: string) => {
    const value = params[name];
    if (typeof value !== 'string') {
      throw new Error(`rate-limit bucket ${bucket.name} needs the route parameter :${name}`);
    }
    return `:${value.slice(0, MAX_PARAM_LENGTH)}`;
  });
}

export function assertValidBucket(bucket: RateLimitBucket): void {
  const { limit, windowMs } = bucket;
  // The script works in whole microseconds: the emission interval must be at least one.
  if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(windowMs) || windowMs * 1000 < limit) {
    throw new Error(`rate-limit bucket ${bucket.name}: invalid limit ${limit} per ${windowMs} ms`);
  }
}
