import type { Request } from 'express';
import { LIMITS } from '@switchboard/contracts';

export const AUDIT_REASON_HEADER = 'x-audit-log-reason';
const AUDIT_REASON_MAX_CHARS = LIMITS.auditLogs.reasonMaxLength;
// U+202E (right-to-left override) can disguise a reason in the panel; control characters too.
const STRIPPED = /[\u202e\p{Cc}]/gu;

/**
 * `X-Audit-Log-Reason` as Fluxer normalises it: strip U+202E and control characters, trim,
 * and keep 1..512 characters; empty or longer is null, never an error.
 */
export function auditReason(req: Request): string | null {
  const raw = req.headers[AUDIT_REASON_HEADER];
  if (typeof raw !== 'string') return null;
  const reason = decodeHeaderText(raw).replace(STRIPPED, '').trim();
  const length = Array.from(reason).length;
  return length >= 1 && length <= AUDIT_REASON_MAX_CHARS ? reason : null;
}

/**
 * Node hands header bytes over as latin1; a client sending UTF-8 text (an operator's reason in
 * any language) means those bytes as UTF-8. Bytes that are not valid UTF-8 stay latin1.
 */
function decodeHeaderText(raw: string): string {
  if (!/[\u0080-\u00ff]/.test(raw)) return raw;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(raw, 'latin1'));
  } catch {
    return raw;
  }
}
