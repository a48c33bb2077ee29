import type { AdminApiKey } from '@switchboard/db';

/** `ListAdminApiKeyResponse`: never the key or its hash. */
export function presentApiKey(key: AdminApiKey) {
  return {
    key_id: key.id,
    name: key.name,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    expires_at: key.expiresAt?.toISOString() ?? null,
    created_by_user_id: key.adminUserId,
    acls: key.acls,
  };
}

/** `CreateAdminApiKeyResponse`: the only time the plaintext key is shown. */
export function presentCreatedApiKey(key: AdminApiKey, plaintext: string) {
  return {
    key_id: key.id,
    key: plaintext,
    name: key.name,
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    acls: key.acls,
  };
}
