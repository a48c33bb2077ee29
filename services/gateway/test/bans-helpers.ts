import { adminCall, type AdminAnswer } from './admin-helpers.ts';

export type BanKind = 'email' | 'ip' | 'phone';
export type BanOperation = 'add' | 'check' | 'list' | 'remove';

/** POST /v1/admin/bans/<kind>/<operation> with one admin key (and fixed extra headers). */
export type BanCaller = (kind: BanKind, operation: BanOperation, body: unknown, headers?: Record<string, string>) => Promise<AdminAnswer>;

export function banCaller(baseUrl: string, key: string, fixedHeaders: Record<string, string> = {}): BanCaller {
  return (kind, operation, body, headers = {}) =>
    adminCall(baseUrl, { method: 'POST', path: `/v1/admin/bans/${kind}/${operation}`, key, body, headers: { ...fixedHeaders, ...headers } });
}

/** Polls `probe` until it returns true; resolves with the milliseconds it took, or throws past the deadline. */
export async function eventually(probe: () => Promise<boolean>, deadlineMs: number, intervalMs = 10): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < deadlineMs) {
    if (await probe()) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`condition not met within ${deadlineMs} ms`);
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
