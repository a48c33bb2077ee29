import { z } from '@switchboard/config';
import { defineCommand } from '../command.ts';
import { table } from '../render.ts';

export const migrateCommand = defineCommand({
  name: 'migrate',
  summary: 'apply pending database migrations (needs DATABASE_URL)',
  uses: 'database',
  schema: z.object({}),
  // A session lock: PostgreSQL itself, never a transaction pooler.
  run: async (_options, config) => {
    const { migrate } = await import('@switchboard/db');
    return migrate(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL);
  },
  render: (result) =>
    table(
      result.applied.map((file) => ({ applied: file })),
      ['applied'],
      'nothing to apply: the schema is up to date',
    ),
});
