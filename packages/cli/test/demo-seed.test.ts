import { GetObjectCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { storageFor } from '@switchboard/testkit/storage';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const environment = useTestEnvironment();
const db = useTestPool(environment);
const MANAGE_WEBHOOKS = 1n << 29n;
const ADMINISTRATOR = 1n << 3n;
const PNG_SIGNATURE = '89504e470d0a1a0a';
// The printed result: only the fields the assertions read.
let seeded: {
  bot: { id: string; token: string };
  non_members: Array<{ id: string; token: string }>;
  guilds: Array<{
    id: string;
    owner: { id: string; token: string };
    members: Array<{ id: string; token: string }>;
    channels: Array<{ id: string; type: number }>;
    roles: Array<{ id: string; name: string }>;
    assets: Array<{ storage_key: string; hash: string; kind: string }>;
    emojis: Array<{ id: string; storage_key: string }>;
    stickers: Array<{ id: string; storage_key: string }>;
    messages: { count: number; channels: Array<{ channel_id: string; count: number }> };
  }>;
};

beforeAll(async () => {
  const run = await runCli(
    [
      'demo',
      'seed',
      '--guilds',
      '2',
      '--channels',
      '2',
      '--members',
      '4',
      '--messages',
      '101',
      '--non-members',
      '3',
      '--json',
    ],
    environment.processEnv(),
  );
  if (run.code !== 0) throw new Error(`demo seed failed: ${run.stderr}`);
  seeded = JSON.parse(run.stdout);
});

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params);
  return rows[0]!.n;
}

/** A member's guild-level permissions: @everyone plus each of its roles. */
async function permissionsOf(guildId: string, userId: string): Promise<bigint> {
  const { rows } = await db().query<{ permissions: string }>(
    `SELECT r.permissions FROM roles r JOIN members m ON m.guild_id = r.guild_id
     WHERE m.guild_id = $1 AND m.user_id = $2 AND (r.id = r.guild_id OR r.id = ANY (m.role_ids))`,
    [guildId, userId],
  );
  return rows.reduce((all, row) => all | BigInt(row.permissions), 0n);
}

describe('switchboard demo seed', () => {
  it('writes what it prints: guilds, channels, members, messages', async () => {
    expect(seeded.guilds).toHaveLength(2);
    for (const guild of seeded.guilds) {
      expect(guild.channels.filter((c) => c.type === 0)).toHaveLength(2);
      expect(await count('channels WHERE guild_id = $1', [guild.id])).toBe(guild.channels.length);
      expect(guild.members).toHaveLength(4);
      // owner + 4 members + the bot
      expect(await count('members WHERE guild_id = $1', [guild.id])).toBe(6);
      const { rows } = await db().query<{ member_count: number }>('SELECT member_count FROM guilds WHERE id = $1', [
        guild.id,
      ]);
      expect(rows[0]!.member_count).toBe(6);
      expect(guild.messages.count).toBe(101);
      expect(guild.messages.channels.map((c) => c.count).sort()).toEqual([50, 51]);
      expect(await count('messages WHERE guild_id = $1', [guild.id])).toBe(101);
      expect(await count('emojis WHERE guild_id = $1', [guild.id])).toBe(guild.emojis.length);
      expect(await count('stickers WHERE guild_id = $1', [guild.id])).toBe(guild.stickers.length);
      expect(await count('guild_assets WHERE guild_id = $1', [guild.id])).toBe(3);
    }
  });

  it('gives every printed user a working token hash, and non-members no membership', async () => {
    const users = [seeded.bot, ...seeded.non_members, ...seeded.guilds.flatMap((g) => [g.owner, ...g.members])];
    for (const user of users) {
      const hash = createHash('sha256').update(user.token).digest();
      const { rows } = await db().query<{ user_id: string; kind: string }>(
        'SELECT user_id, kind FROM user_tokens WHERE token_hash = $1',
        [hash],
      );
      expect(rows).toEqual([{ user_id: user.id, kind: user === seeded.bot ? 'bot' : 'user' }]);
    }
    expect(seeded.non_members).toHaveLength(3);
    for (const outsider of seeded.non_members) {
      expect(await count('members WHERE user_id = $1', [outsider.id])).toBe(0);
    }
  });

  it('lets the owner administer and no ordinary member manage webhooks', async () => {
    for (const guild of seeded.guilds) {
      const { rows } = await db().query<{ owner_id: string }>('SELECT owner_id FROM guilds WHERE id = $1', [guild.id]);
      expect(rows[0]!.owner_id).toBe(guild.owner.id);
      expect((await permissionsOf(guild.id, guild.owner.id)) & ADMINISTRATOR).toBe(ADMINISTRATOR);
      for (const member of guild.members) {
        const permissions = await permissionsOf(guild.id, member.id);
        expect(permissions & (MANAGE_WEBHOOKS | ADMINISTRATOR)).toBe(0n);
      }
      expect((await permissionsOf(guild.id, seeded.bot.id)) & MANAGE_WEBHOOKS).toBe(MANAGE_WEBHOOKS);
      expect(guild.roles.find((r) => r.name === '@everyone')!.id).toBe(guild.id);
    }
  });

  it('stores real PNG images in the bucket under the printed keys', async () => {
    const storage = storageFor(environment);
    try {
      for (const guild of seeded.guilds) {
        for (const object of [...guild.assets, ...guild.emojis, ...guild.stickers]) {
          const response = await storage.client.send(
            new GetObjectCommand({ Bucket: environment.s3.bucket, Key: object.storage_key }),
          );
          const bytes = Buffer.from(await response.Body!.transformToByteArray());
          expect(bytes.subarray(0, 8).toString('hex')).toBe(PNG_SIGNATURE);
          expect(response.ContentType).toBe('image/png');
          if ('hash' in object) expect(createHash('md5').update(bytes).digest('hex').slice(0, 8)).toBe(object.hash);
        }
      }
    } finally {
      storage.close();
    }
  });
});
