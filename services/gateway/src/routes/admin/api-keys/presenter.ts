import { z } from 'zod';
import { apiSchema } from '@switchboard/contracts';
import type { AdminApiKey } from '@switchboard/db';

const timestamp = z.iso.datetime();

/** `ListAdminApiKeyResponse`: never the key or its hash. */
export const apiKeyResponseSchema = apiSchema(
  'ApiKey',
  z.object({
    key_id: z.string(),
    name: z.string(),
    created_at: timestamp,
    last_used_at: timestamp.nullable(),
    expires_at: timestamp.nullable(),
    created_by_user_id: z.string(),
    acls: z.array(z.string()),
  }),
);

/** `CreateAdminApiKeyResponse`: the only time the plaintext key is shown. */
export const createdApiKeyResponseSchema = apiSchema(
  'CreatedApiKey',
  z.object({
    key_id: z.string(),
    key: z.string(),
    name: z.string(),
    created_at: timestamp,
    expires_at: timestamp.nullable(),
    acls: z.array(z.string()),
  }),
);

export function presentApiKey(key: AdminApiKey): z.output<typeof apiKeyResponseSchema> {
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

export function presentCreatedApiKey(
  key: AdminApiKey,
  plaintext: string,
): z.output<typeof createdApiKeyResponseSchema> {
  return {
    key_id: key.id,
    key: plaintext,
    name: key.name,
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    acls: key.acls,
  };
}
