import type { Answer } from '@switchboard/testkit/http';
import { adminCall } from './admin-helpers.ts';

export type BanKind = 'email' | 'ip' | 'phone';
export type BanOperation = 'add' | 'check' | 'list' | 'remove';

/** POST /v1/admin/bans/<kind>/<operation> with one admin key (and fixed extra headers). */
export type BanCaller = (
  kind: BanKind,
  operation: BanOperation,
  body: unknown,
  headers?: Record<string, string>,
) => Promise<Answer>;

export function banCaller(baseUrl: string, key: string, fixedHeaders: Record<string, string> = {}): BanCaller {
  return (kind, operation, body, headers = {}) =>
    adminCall(baseUrl, {
      method: 'POST',
      path: `/v1/admin/bans/${kind}/${operation}`,
      key,
      body,
      headers: { ...fixedHeaders, ...headers },
    });
}

/** An audit_logs row as the ban tests read it straight from PostgreSQL (the audit routes are tested elsewhere). */
export interface AuditRow {
  admin_user_id: string;
  target_type: string;
  target_id: string;
  action: string;
  audit_log_reason: string | null;
  metadata: Record<string, string>;
}
