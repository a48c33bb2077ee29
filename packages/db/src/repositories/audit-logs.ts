import type { Queryable } from '../pool.ts';

/** One audit entry (reference §6.1): who did what to which target, why, with string metadata. */
export interface AuditLog {
  id: string;
  adminUserId: string;
  targetType: string;
  targetId: string;
  action: string;
  reason: string | null;
  metadata: Record<string, string>;
  createdAt: Date;
}

export type NewAuditLog = Omit<AuditLog, 'createdAt'>;

const COLUMNS = `id, admin_user_id AS "adminUserId", target_type AS "targetType", target_id AS "targetId",
  action, audit_log_reason AS "reason", metadata, created_at AS "createdAt"`;

/** Inserts every entry in one statement (in the caller's transaction when given a client). */
export async function insertAuditLogs(db: Queryable, entries: readonly NewAuditLog[]): Promise<number> {
  if (entries.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO audit_logs (id, admin_user_id, target_type, target_id, action, audit_log_reason, metadata)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[])`,
    [
      entries.map((e) => e.id),
      entries.map((e) => e.adminUserId),
      entries.map((e) => e.targetType),
      entries.map((e) => e.targetId),
      entries.map((e) => e.action),
      entries.map((e) => e.reason),
      entries.map((e) => JSON.stringify(e.metadata)),
    ],
  );
  return result.rowCount ?? 0;
}

export async function findAuditLogById(db: Queryable, id: string): Promise<AuditLog | null> {
  const { rows } = await db.query<AuditLog>(`SELECT ${COLUMNS} FROM audit_logs WHERE id = $1`, [id]);
  return rows[0] ?? null;
}
