import { z } from '@switchboard/config';
import { ACL, LIMITS } from '@switchboard/contracts';
import { intOption } from '../args.ts';
import { defineCommand } from '../command.ts';
import { withDatabasePool } from '../database.ts';

// The same bounds as POST /admin/api-keys (docs/decisions.md#fluxer-admin-key-routes).
const MAX_ACLS = 100;
const name = z.string().max(100).regex(/\S/, 'must contain a non-space character');
const acl = z.string().regex(/^[^\s]{1,100}$/, 'an ACL is 1-100 characters without spaces');

const optionsSchema = z
  .object({
    name,
    acl: z.array(acl, { error: 'give at least one --acl' }).min(1, 'give at least one --acl').max(MAX_ACLS),
    'key-name': name.optional(),
    'expires-in-days': intOption(LIMITS.apiKeys.expiresInDays.min, LIMITS.apiKeys.expiresInDays.max).optional(),
  })
  .transform((o) => ({
    name: o.name,
    acls: [...new Set(o.acl)],
    keyName: o['key-name'],
    expiresInDays: o['expires-in-days'],
  }));

export const adminCreateCommand = defineCommand({
  name: 'admin create',
  summary: 'create (or reuse by name) an admin and a key, straight in the database: the first key',
  description:
    'The admin holds the ACLs given (added to what it holds when it exists) and the key exactly those. The key is printed once. Needs DATABASE_URL and REDIS_URL; later keys come from "keys create" through the API.',
  uses: 'database',
  options: {
    name: { type: 'string', value: 'NAME', description: "the admin's name (reused when it exists)" },
    acl: {
      type: 'string',
      multiple: true,
      value: 'ACL',
      description: "an ACL for the admin and the key ('*' for all)",
    },
    'key-name': { type: 'string', value: 'NAME', description: "the key's name (default: the admin's)" },
    'expires-in-days': { type: 'string', value: '1..365', description: 'the key expires after this many days' },
  },
  schema: optionsSchema,
  async run(options, config) {
    if (!options.acls.includes(ACL.wildcard) && !options.acls.includes(ACL.authenticate)) {
      // Created anyway (an ACL may be granted later), but the key it prints opens nothing yet.
      process.stderr.write(
        `warning: the ACLs lack ${ACL.authenticate} (or ${ACL.wildcard}): this key is refused (403) on every admin route until the admin holds it\n`,
      );
    }
    // Loaded here, not at start: every other command (and --help) starts without them.
    const [{ createAdminWithKey }, { withLeasedIds }] = await Promise.all([
      import('@switchboard/auth'),
      import('../leased-ids.ts'),
    ]);
    return withDatabasePool(config, 'switchboard-cli', async (pool) => {
      const result = await withLeasedIds(config, (ids) => createAdminWithKey(pool, ids, options));
      return {
        admin_user_id: result.admin.id,
        admin_created: result.adminCreated,
        admin_acls: result.admin.acls,
        key_id: result.record.id,
        key: result.key,
        name: result.admin.name,
        key_name: result.record.name,
        acls: result.record.acls,
        created_at: result.record.createdAt.toISOString(),
        expires_at: result.record.expiresAt?.toISOString() ?? null,
      };
    });
  },
});
