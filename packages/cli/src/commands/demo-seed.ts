import { z } from '@switchboard/config';
import { intOption } from '../args.ts';
import { defineCommand } from '../command.ts';
import { record, table } from '../render.ts';

const optionsSchema = z
  .object({
    guilds: intOption(1, 1000).default(1),
    channels: intOption(1, 500).default(3),
    members: intOption(0, 1_000_000).default(5),
    messages: intOption(0, 100_000_000).default(50),
    'non-members': intOption(0, 1000).default(2),
  })
  .transform((o) => ({ ...o, nonMembers: o['non-members'] }));

export type SeedOptions = z.infer<typeof optionsSchema>;

export const demoSeedCommand = defineCommand({
  name: 'demo seed',
  summary: 'write demo guilds, users, channels, assets and messages straight into the stores',
  description:
    "Counts are per guild. Each guild gets an owner, members, the run's bot, roles, channels, emojis, a sticker, images in S3 and messages. Prints every id and token. Needs DATABASE_URL, REDIS_URL and S3.",
  uses: 'database',
  options: {
    guilds: { type: 'string', value: 'N', description: 'guilds to make (1)' },
    channels: { type: 'string', value: 'N', description: 'text channels per guild (3)' },
    members: { type: 'string', value: 'N', description: 'members per guild besides the owner (5)' },
    messages: { type: 'string', value: 'N', description: 'messages per guild (50)' },
    'non-members': { type: 'string', value: 'N', description: 'users in no guild (2)' },
  },
  schema: optionsSchema,
  async run(options, config) {
    // Loaded here, not at start: the other commands (and --help) start without S3 and the seeders.
    const { runDemoSeed } = await import('../demo/seed.ts');
    return runDemoSeed(options, config);
  },
  // The ids and tokens people reach for first; --json has everything.
  render: (result) => ({
    kind: 'sections',
    sections: [
      record({ tag: result.tag, bot_id: result.bot.id, bot_token: result.bot.token, bucket: result.bucket }),
      table(
        result.guilds.map((guild) => ({
          guild_id: guild.id,
          name: guild.name,
          owner_token: guild.owner.token,
          channels: guild.channels.length,
          members: guild.members.length,
          messages: guild.messages.count,
        })),
      ),
    ],
  }),
});
