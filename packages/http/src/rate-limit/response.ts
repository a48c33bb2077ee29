import type { Response } from 'express';
import type { RateLimitDecision } from './limiter.ts';

/** The 429 body (docs/decisions.md#rate-limits). */
export interface RateLimitedBody {
  code: 'RATE_LIMITED';
  message: string;
  /** Whole seconds, the same value as the `Retry-After` header. */
  retry_after: number;
  global: boolean;
}

/**
 * The bucket headers (Discord's set) every response that passed through a limiter carries:
 * `X-RateLimit-Reset-After` in seconds with millisecond decimals, as Discord sends it.
 */
export function setRateLimitHeaders(res: Response, decision: RateLimitDecision, bucketKey: string): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.resetUnixSeconds));
  res.setHeader('X-RateLimit-Reset-After', (Math.max(0, decision.resetAfterMs) / 1000).toFixed(3));
  res.setHeader('X-RateLimit-Bucket', decision.global ? 'global' : bucketKey);
}

/**
 * Whole seconds, at least 1. The body's `retry_after` is this same integer, as current
 * Fluxer sends it: a client decoding it into an integer field (Go, Rust) would fail on the
 * fractional value old Fluxer sent, and `X-RateLimit-Reset` already gives the exact horizon.
 */
export function retryAfterSeconds(decision: RateLimitDecision): number {
  return Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
}

/**
 * Every 429, whichever bucket refused (a route's, the global one, a failure budget), goes out
 * here, so each carries the same headers: the bucket set above, `Retry-After` and
 * `X-RateLimit-Global`.
 */
export function sendRateLimited(res: Response, decision: RateLimitDecision, bucketKey: string): void {
  const retryAfter = retryAfterSeconds(decision);
  const body: RateLimitedBody = {
    code: 'RATE_LIMITED',
    message: "You're being rate limited.",
    retry_after: retryAfter,
    global: decision.global,
  };
  setRateLimitHeaders(res, decision, bucketKey);
  res.setHeader('Retry-After', String(retryAfter));
  res.setHeader('X-RateLimit-Global', String(decision.global));
  res.status(429).json(body);
}
