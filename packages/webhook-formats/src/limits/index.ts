import type { RenderedMessage } from '../message.ts';
import { findLimitViolations, type LimitViolation } from './check.ts';
import { truncateToLimits } from './truncate.ts';

export { findLimitViolations, type LimitViolation } from './check.ts';
export { truncateToLimits } from './truncate.ts';

/**
 * `reject` for messages a client wrote (plain execute: a violation is a 400 with field paths);
 * `truncate` for messages generated from third-party payloads, which must never fail to post.
 */
export type LimitPolicy = 'reject' | 'truncate';

export type LimitResult = { ok: true; message: RenderedMessage } | { ok: false; errors: LimitViolation[] };

export function enforceMessageLimits(message: RenderedMessage, policy: LimitPolicy): LimitResult {
  if (policy === 'truncate') return { ok: true, message: truncateToLimits(message) };
  const errors = findLimitViolations(message);
  return errors.length === 0 ? { ok: true, message } : { ok: false, errors };
}
