import { insertAuditLogs, type NewAuditLog, type Queryable } from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';

/**
 * What an admin write records: the repository's entry without its id, which is assigned here.
 * `adminUserId` is the key's owner and `apiKeyId` the key itself (`actingKey(res)` gives both), `reason` is
 * `auditReason(req)` (or null), and `metadata` is a flat, searchable string map: never secrets
 * (no key material, no tokens).
 */
export type AuditEntryInput = Omit<NewAuditLog, 'id'>;

/** Who acted, as an audit entry records it: the key's owner and the key. */
export function actingKey(principal: {
  adminUserId: string;
  keyId: string;
}): Pick<AuditEntryInput, 'adminUserId' | 'apiKeyId'> {
  return { adminUserId: principal.adminUserId, apiKeyId: principal.keyId };
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
