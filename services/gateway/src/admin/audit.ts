import { insertAuditLogs, type Queryable } from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';

/** What an admin write records; the id and time are assigned here. */
export interface AuditEntryInput {
  /** The acting admin: the key's owner (`adminPrincipal(res).adminUserId`). */
  adminUserId: string;
  targetType: string;
  targetId: string;
  action: string;
  /** `auditReason(req)`: the normalised X-Audit-Log-Reason, or null. */
  reason: string | null;
  /** Flat string map, searchable. Never secrets (no key material, no tokens). */
  metadata: Record<string, string>;
}

/**
 * Writes audit entries in one statement. Pass the transaction client of the change being
 * recorded, so the entry exists exactly when the change does.
 */
export async function recordAudit(
  db: Queryable,
  ids: SnowflakeGenerator,
  entries: AuditEntryInput | readonly AuditEntryInput[],
): Promise<void> {
  const list = Array.isArray(entries) ? (entries as readonly AuditEntryInput[]) : [entries as AuditEntryInput];
  await insertAuditLogs(
    db,
    list.map((entry) => ({ id: ids.next(), ...entry })),
  );
}
