// Admin authentication and its consequences in one place: who the caller is (principal,
// resolution from the key, key-use recording), what it may do (ACL check), and the audit
// entries its writes leave. Routes import from here; nothing here imports a route.
export { grantedAcl, missingAcl, requireAdminAcl } from './acl.ts';
export { AUDIT_REASON_HEADER, auditReason } from './audit-reason.ts';
export { actingKey, recordAudit, type AuditEntryInput } from './audit.ts';
export { KEY_USE_INTERVAL_MS, keyUseRecorder, type KeyUseRecorder } from './key-use.ts';
export {
  adminPrincipal,
  findAdminPrincipal,
  principalOfKey,
  setAdminPrincipal,
  type AdminPrincipal,
} from './principal.ts';
export { adminKeyFromHeader, resolveAdminPrincipal } from './resolve.ts';
