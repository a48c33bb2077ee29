import type { Request, Response } from 'express';
import type { BanListPosition } from '@switchboard/db';
import { actingKey, adminPrincipal, auditReason, type AuditEntryInput } from '../../../admin-auth/index.ts';
import { encodeCursor } from './cursor.ts';

export type BanTargetType = 'email' | 'phone' | 'ip';

/**
 * Who acts and why: the ban's reason is the body's `reason`, else X-Audit-Log-Reason; the
 * audit entry's reason is the header, else the body's reason.
 */
export function actingAdmin(req: Request, res: Response, bodyReason: string | null = null) {
  const header = auditReason(req);
  const principal = adminPrincipal(res);
  return {
    adminUserId: principal.adminUserId,
    keyId: principal.keyId,
    banReason: bodyReason ?? header,
    auditReason: header ?? bodyReason,
  };
}

/**
 * One audit entry per value. target_id is the canonical value, so "everything done to this
 * address" is an exact filter (Fluxer writes "0"); the column holds the longest email.
 */
export function banAuditEntries(
  admin: { adminUserId: string; keyId: string; auditReason: string | null },
  targetType: BanTargetType,
  action: 'ban' | 'unban',
  values: readonly string[],
  extraMetadata: (value: string) => Record<string, string> = () => ({}),
): AuditEntryInput[] {
  return values.map((value) => ({
    ...actingKey(admin),
    targetType,
    targetId: value,
    action: `${action}_${targetType}`,
    reason: admin.auditReason,
    metadata: { [targetType]: value, ...extraMetadata(value) },
  }));
}

/** Rows fetched with `limit + 1`: the page, and the cursor of the next one when there is more. */
export function page<T>(
  rows: T[],
  limit: number,
  positionOf: (row: T) => BanListPosition,
): { rows: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const kept = rows.slice(0, limit);
  return { rows: kept, nextCursor: encodeCursor(positionOf(kept[kept.length - 1]!)) };
}

/** Values without repeats, the first occurrence kept (ON CONFLICT refuses a key twice per statement). */
export function uniqueBy<T>(values: readonly T[], keyOf: (value: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const value of values) if (!seen.has(keyOf(value))) seen.set(keyOf(value), value);
  return [...seen.values()];
}
