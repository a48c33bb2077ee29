import { secretKeysOf, z } from '@switchboard/config';
import { defineCommand } from '../command.ts';
import { withDatabasePool } from '../database.ts';
import { record, table } from '../render.ts';

export const migrateCommand = defineCommand({
  name: 'migrate',
  summary: 'apply pending database migrations, then seal webhook secrets under the write key',
  description:
    'Needs DATABASE_URL. With SECRETS_ENCRYPTION_KEY (or _KEYS, the write key first) it then seals every webhook secret stored as given or under an older key; a second run finds nothing to do.',
  uses: 'database',
  schema: z.object({}),
  run: async (_options, config) => {
    const { migrate, resealWebhookSecrets, secretKeyring } = await import('@switchboard/db');
    // A session lock: PostgreSQL itself, never a transaction pooler.
    const { applied } = await migrate(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL);
    const keyring = secretKeyring(secretKeysOf(config));
    const writeKeyId = keyring.writeKeyId;
    if (writeKeyId === null) return { applied };
    return withDatabasePool(config, 'switchboard-migrate', async (pool) => ({
      applied,
      secrets_resealed: await resealWebhookSecrets(pool, keyring),
      write_key_id: writeKeyId,
    }));
  },
  render: (result) => ({
    kind: 'sections',
    sections: [
      table(
        result.applied.map((file) => ({ applied: file })),
        ['applied'],
        'nothing to apply: the schema is up to date',
      ),
      ...('secrets_resealed' in result
        ? [record({ secrets_resealed: result.secrets_resealed, write_key_id: result.write_key_id })]
        : []),
    ],
  }),
});
