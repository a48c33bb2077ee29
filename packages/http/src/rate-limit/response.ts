import type { Response } from 'express';
import type { RateLimitDecision } from './limiter.ts';

/** The 429 body (interface.md, Errors). */
export interface RateLimitedBody {
  code: 'RATE_LIMITED';
  message: string;
  /** Whole seconds, the same value as the `Retry-After` header. */
  retry_after: number;
  global: boolean;
}

/** Headers every response that passed through the limiter carries. */
export function setRateLimitHeaders(res: Response, decision: RateLimitDecision, bucketKey: string): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.resetUnixSeconds));
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

export function sendRateLimited(res: Response, decision: RateLimitDecision): void {
  const retryAfter = retryAfterSeconds(decision);
  const body: RateLimitedBody = {
    code: 'RATE_LIMITED',
    message: "You're being rate limited.",
    retry_after: retryAfter,
    global: decision.global,
  };
  res.setHeader('Retry-After', String(retryAfter));
  res.setHeader('X-RateLimit-Global', String(decision.global));
  res.status(429).json(body);
}
