import { createAdminWithKey, MAX_KEY_LIFETIME_DAYS } from '@switchboard/auth';
import { z } from '@switchboard/config';
import { ACL } from '@switchboard/contracts';
import { createPool, poolModeOptions } from '@switchboard/db';
import { intOption, parseOptions } from '../args.ts';
import { defineCommand } from '../command.ts';
import { withLeasedIds } from '../leased-ids.ts';

// The same bounds as POST /admin/api-keys (docs/decisions.md#fluxer-admin-key-routes).
const MAX_ACLS = 100;
const name = z.string().max(100).regex(/\S/, 'must contain a non-space character');
const acl = z.string().regex(/^[^\s]{1,100}$/, 'an ACL is 1-100 characters without spaces');

const optionsSchema = z
  .object({
    name,
    acl: z.array(acl, { error: 'give at least one --acl' }).min(1, 'give at least one --acl').max(MAX_ACLS),
    'key-name': name.optional(),
    'expires-in-days': intOption(1, MAX_KEY_LIFETIME_DAYS).optional(),
  })
  .transform((o) => ({
    name: o.name,
    acls: [...new Set(o.acl)],
    keyName: o['key-name'],
    expiresInDays: o['expires-in-days'],
  }));

export const adminCreateCommand = defineCommand({
  name: 'admin create',
  usage:
    'admin create --name NAME --acl ACL [--acl ACL …] [--key-name NAME] [--expires-in-days 1..365]: create (or reuse by name) an admin holding the ACLs, and a key with exactly those ACLs; the key is printed once',
  parse: (args) =>
    parseOptions(
      args,
      {
        name: { type: 'string' },
        acl: { type: 'string', multiple: true },
        'key-name': { type: 'string' },
        'expires-in-days': { type: 'string' },
      },
      optionsSchema,
    ),
  async run(options, config) {
    if (!options.acls.includes(ACL.wildcard) && !options.acls.includes(ACL.authenticate)) {
      // Created anyway (an ACL may be granted later), but the key it prints opens nothing yet.
      process.stderr.write(
        `warning: the ACLs lack ${ACL.authenticate} (or ${ACL.wildcard}): this key is refused (403) on every admin route until the admin holds it\n`,
      );
    }
    const pool = createPool({
      connectionString: config.DATABASE_URL,
      max: 1,
      applicationName: 'switchboard-cli',
      ...poolModeOptions(config),
    });
    try {
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
    } finally {
      await pool.end();
    }
  },
});
