import { z } from '@switchboard/config';
import { migrate } from '@switchboard/db';
import { parseOptions } from '../args.ts';
import { defineCommand } from '../command.ts';

export const migrateCommand = defineCommand({
  name: 'migrate',
  usage: 'migrate: apply pending database migrations; prints {"applied": [file names]}',
  parse: (args) => parseOptions(args, {}, z.object({})),
  // A session lock: PostgreSQL itself, never a transaction pooler.
  run: async (_options, config) => migrate(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL),
});
