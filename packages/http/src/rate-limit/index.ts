export { rateLimit, DEFAULT_RATE_LIMIT_TIMEOUT_MS, type RateLimitOptions } from './middleware.ts';
export { failureBudget, type FailureBudget, type FailureBudgetOptions } from './failures.ts';
export {
  checkRateLimit,
  rateLimitKey,
  redisKeyClock,
  type RateLimitCheck,
  type RateLimitClock,
  type RateLimitDecision,
} from './limiter.ts';
export {
  defaultRateLimitIdentity,
  ipRateLimitIdentity,
  rateLimitIdentityOf,
  setRateLimitIdentity,
  type RateLimitIdentity,
} from './identity.ts';
export { resolveBucketKey } from './bucket-key.ts';
export { sendRateLimited, setRateLimitHeaders, retryAfterSeconds, type RateLimitedBody } from './response.ts';
export { clientIp, normalizeIp, UNKNOWN_CLIENT_IP, type ClientIpSource } from '../client-ip.ts';
