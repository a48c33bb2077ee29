export { grantedAcl, missingAcl, requireAdminAcl } from './acl.ts';
export { KEY_USE_INTERVAL_MS, keyUseRecorder, type KeyUseRecorder } from './key-use.ts';
export { adminKeyFromHeader, resolveAdminPrincipal } from './principal.ts';
