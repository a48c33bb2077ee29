import type { z } from 'zod';
import type { AuditLogEntry, auditLogListResponseSchema } from '@switchboard/contracts';
import type { AuditLog, AuditLogResult } from '@switchboard/db';

/**
 * `AdminAuditLogResponseSchema` (docs/decisions.md#fluxer-audit-entries): every field present,
 * metadata a flat string map.
 */
export function presentAuditLog(log: AuditLog): AuditLogEntry {
  return {
    log_id: log.id,
    admin_user_id: log.adminUserId,
    // Which of the admin's keys acted (null before it was recorded).
    api_key_id: log.apiKeyId,
    target_type: log.targetType,
    target_id: log.targetId,
    action: log.action,
    audit_log_reason: log.reason,
    metadata: Object.fromEntries(
      Object.entries(log.metadata).map(([key, value]) => [
        key,
        typeof value === 'string' ? value : JSON.stringify(value),
      ]),
    ),
    created_at: log.createdAt.toISOString(),
  };
}

export function presentAuditLogs(result: AuditLogResult): z.output<typeof auditLogListResponseSchema> {
  return { logs: result.logs.map(presentAuditLog), total: result.total, total_is_exact: result.totalIsExact };
}
