import { z } from '@switchboard/config';
import { LIMITS } from '@switchboard/contracts';
import { intOption } from '../args.ts';
import { deleteByIdCommand } from '../by-id-commands.ts';
import { defineCommand } from '../command.ts';
import { record, table } from '../render.ts';

interface ApiKey {
  key_id: string;
  name: string;
  acls: string[];
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

export const keysCreateCommand = defineCommand({
  name: 'keys create',
  summary: 'create an admin API key for the calling admin (the key is printed once)',
  description: 'The new key holds only ACLs the calling key holds, and never outlives it.',
  uses: 'api',
  audited: true,
  options: {
    name: { type: 'string', value: 'NAME', description: "the key's name" },
    acl: { type: 'string', multiple: true, value: 'ACL', description: 'an ACL the key holds (repeat for more)' },
    'expires-in-days': { type: 'string', value: '1..365', description: 'the key expires after this many days' },
  },
  schema: z.object({
    name: z.string().min(1).max(100),
    acl: z.array(z.string().min(1).max(100), { error: 'give at least one --acl' }).min(1).max(100),
    'expires-in-days': intOption(LIMITS.apiKeys.expiresInDays.min, LIMITS.apiKeys.expiresInDays.max).optional(),
  }),
  run: (options, api) =>
    api.request<ApiKey & { key: string }>('POST', '/v1/admin/api-keys', {
      body: { name: options.name, acls: options.acl, expires_in_days: options['expires-in-days'] },
    }),
  render: (key) => record({ ...key, acls: key.acls.join(' ') }),
});

export const keysListCommand = defineCommand({
  name: 'keys list',
  summary: "the calling admin's API keys, newest first (never the keys themselves)",
  uses: 'api',
  schema: z.object({}),
  run: (_options, api) => api.request<ApiKey[]>('GET', '/v1/admin/api-keys'),
  render: (keys) =>
    table(
      keys.map((key) => ({ ...key, acls: key.acls.join(' ') })),
      ['key_id', 'name', 'acls', 'created_at', 'last_used_at', 'expires_at'],
    ),
});

export const keysRevokeCommand = deleteByIdCommand({
  name: 'keys revoke',
  summary: "revoke one of the calling admin's keys; it stops working on every gateway at once",
  id: { name: 'key-id', description: "the key's id (key_id in keys list)" },
  path: (id) => `/v1/admin/api-keys/${id}`,
  done: 'revoked',
});
