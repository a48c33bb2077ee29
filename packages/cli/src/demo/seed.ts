import { randomBytes } from 'node:crypto';
import { createPool, poolModeOptions, summarizeChannelMessages, type Pool } from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';
import { createStorage, storageOptionsFromConfig, type Storage } from '@switchboard/storage';
import type { SeedOptions } from '../commands/demo-seed.ts';
import type { CliConfig } from '../config.ts';
import { withLeasedIds } from '../leased-ids.ts';
import { makeUser, planGuild, type GuildPlan, type SeedUser } from './plan.ts';
import { writeGuild, writeUsers } from './write-guild.ts';
import { writeMessages } from './write-messages.ts';

const user = (u: SeedUser) => ({ id: u.id, username: u.username, token: u.token });

async function describeGuild(pool: Pool, plan: GuildPlan, messagesMs: number) {
  const perChannel = await summarizeChannelMessages(pool, plan.textChannelIds);
  const image = (table: string) => plan.images.filter((i) => i.target.table === table);
  return {
    id: plan.id,
    name: plan.name,
    owner: user(plan.owner),
    members: plan.members.map((m, i) => ({ ...user(m), role_ids: plan.memberRows[i + 1]!.roleIds })),
    roles: Object.values(plan.roles).map((r) => ({ id: r.id, name: r.name, permissions: r.permissions.toString() })),
    channels: plan.channels.map((c) => ({
      id: c.id,
      name: c.name,
      type: c.type,
      position: c.position,
      parent_id: c.parentId ?? null,
    })),
    assets: image('guild_assets').map((i) => ({
      id: i.id,
      kind: i.target.table === 'guild_assets' ? i.target.kind : null,
      hash: i.hash,
      storage_key: i.storageKey,
    })),
    emojis: image('emojis').map((i) => ({
      id: i.id,
      name: 'name' in i.target ? i.target.name : null,
      storage_key: i.storageKey,
    })),
    stickers: image('stickers').map((i) => ({
      id: i.id,
      name: 'name' in i.target ? i.target.name : null,
      storage_key: i.storageKey,
    })),
    messages: {
      count: perChannel.reduce((sum, c) => sum + c.count, 0),
      elapsed_ms: messagesMs,
      channels: perChannel.map((c) => ({
        channel_id: c.channelId,
        count: c.count,
        first_id: c.firstId,
        last_id: c.lastId,
      })),
    },
  };
}

async function seed(pool: Pool, storage: Storage, ids: SnowflakeGenerator, options: SeedOptions) {
  // A run tag keeps usernames and e-mail addresses of repeated seeds apart.
  const tag = randomBytes(3).toString('hex');
  const bot = makeUser(ids, `bot_${tag}`, 'bot');
  const nonMembers = Array.from({ length: options.nonMembers }, (_, i) => makeUser(ids, `outsider_${tag}_${i + 1}`));
  await writeUsers(pool, [bot, ...nonMembers]);
  const guilds = [];
  for (let index = 1; index <= options.guilds; index++) {
    const plan = planGuild(ids, { tag, index, textChannels: options.channels, memberCount: options.members, bot });
    await writeGuild(pool, storage, plan);
    const started = performance.now();
    await writeMessages(pool, ids, {
      guildId: plan.id,
      channelIds: plan.textChannelIds,
      authorIds: [plan.owner.id, ...plan.members.map((m) => m.id)],
      count: options.messages,
    });
    guilds.push(await describeGuild(pool, plan, Math.round(performance.now() - started)));
  }
  return { tag, bot: user(bot), non_members: nonMembers.map(user), guilds };
}

/** `demo seed`: the guilds, users and messages, written straight into PostgreSQL and S3. */
export async function runDemoSeed(options: SeedOptions, config: CliConfig) {
  const started = performance.now();
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: 2,
    applicationName: 'switchboard-cli',
    ...poolModeOptions(config),
  });
  const storage = createStorage(storageOptionsFromConfig(config));
  try {
    await storage.ensureBucket();
    const result = await withLeasedIds(config, (ids) => seed(pool, storage, ids, options));
    return { ...result, bucket: storage.bucket, elapsed_ms: Math.round(performance.now() - started) };
  } finally {
    storage.close();
    await pool.end();
  }
}
