import { generateUserToken, hashCredential } from '@switchboard/auth';
import { Permission } from '@switchboard/contracts';
import {
  ChannelType,
  insertChannels,
  insertGuild,
  insertMembers,
  insertRoles,
  insertUsers,
  insertUserTokens,
  withTransaction,
  type Pool,
  type PoolClient,
} from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { call } from '@switchboard/testkit/http';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import type { WebhookResponse } from '../src/routes/webhooks/presenter.ts';

export const ids = createSnowflakeGenerator(testSnowflakeWorkerId());

export interface Account {
  id: string;
  token: string;
}

/**
 * A guild with one account per permission standing (the permission matrix): the owner (no
 * roles: ownership alone), an administrator, a MANAGE_WEBHOOKS holder, a bot holding
 * MANAGE_WEBHOOKS, a plain member, and an outsider who owns a second guild.
 */
export interface GuildFixture {
  guildId: string;
  /** Two text channels of the guild. */
  channelIds: [string, string];
  voiceChannelId: string;
  /** A DM channel (outside any guild). */
  dmChannelId: string;
  owner: Account;
  admin: Account;
  manager: Account;
  bot: Account;
  member: Account;
  outsider: Account;
  other: { guildId: string; channelId: string };
  /** The roles of the main guild (the @everyone role's id is guildId). */
  roleIds: { manager: string; admin: string };
}

/** The fixture's @everyone permissions: an ordinary member's set, without MANAGE_WEBHOOKS. */
export const EVERYONE = Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES | Permission.READ_MESSAGE_HISTORY;

let accounts = 0;

async function insertAccounts(db: PoolClient, kinds: Array<'user' | 'bot'>): Promise<Account[]> {
  const made = kinds.map((kind) => {
    const id = ids.next();
    return { id, token: generateUserToken(id), kind, username: `u${++accounts}_${id.slice(-6)}` };
  });
  await insertUsers(
    db,
    made.map((a) => ({ id: a.id, username: a.username, bot: a.kind === 'bot' })),
  );
  await insertUserTokens(
    db,
    made.map((a) => ({ tokenHash: hashCredential(a.token), userId: a.id, kind: a.kind })),
  );
  return made.map(({ id, token }) => ({ id, token }));
}

async function insertGuildWithChannels(
  db: PoolClient,
  ownerId: string,
  types: number[],
): Promise<{ guildId: string; channelIds: string[] }> {
  const guildId = ids.next();
  await insertGuild(db, { id: guildId, name: `guild ${guildId}`, ownerId });
  const channelIds = types.map(() => ids.next());
  await insertChannels(
    db,
    types.map((type, i) => ({ id: channelIds[i]!, guildId, type, name: `channel-${i}`, position: i })),
  );
  return { guildId, channelIds };
}

export async function createGuildFixture(pool: Pool): Promise<GuildFixture> {
  return withTransaction(pool, async (db) => {
    const [owner, admin, manager, bot, member, outsider] = await insertAccounts(db, [
      'user',
      'user',
      'user',
      'bot',
      'user',
      'user',
    ]);
    const main = await insertGuildWithChannels(db, owner!.id, [
      ChannelType.GuildText,
      ChannelType.GuildText,
      ChannelType.GuildVoice,
    ]);
    const other = await insertGuildWithChannels(db, outsider!.id, [ChannelType.GuildText]);
    const adminRole = ids.next();
    const managerRole = ids.next();
    await insertRoles(db, [
      { id: main.guildId, guildId: main.guildId, name: '@everyone', permissions: EVERYONE, position: 0 },
      {
        id: managerRole,
        guildId: main.guildId,
        name: 'Webhooks',
        permissions: Permission.MANAGE_WEBHOOKS,
        position: 1,
      },
      { id: adminRole, guildId: main.guildId, name: 'Admin', permissions: Permission.ADMINISTRATOR, position: 2 },
      { id: other.guildId, guildId: other.guildId, name: '@everyone', permissions: 0n, position: 0 },
    ]);
    await insertMembers(db, main.guildId, [
      { userId: owner!.id },
      { userId: admin!.id, roleIds: [adminRole] },
      { userId: manager!.id, roleIds: [managerRole] },
      { userId: bot!.id, roleIds: [managerRole] },
      { userId: member!.id },
    ]);
    await insertMembers(db, other.guildId, [{ userId: outsider!.id }]);
    const dmChannelId = ids.next();
    await db.query('INSERT INTO channels (id, type) VALUES ($1, $2)', [dmChannelId, ChannelType.Dm]);
    return {
      guildId: main.guildId,
      channelIds: [main.channelIds[0]!, main.channelIds[1]!],
      voiceChannelId: main.channelIds[2]!,
      dmChannelId,
      owner: owner!,
      admin: admin!,
      manager: manager!,
      bot: bot!,
      member: member!,
      outsider: outsider!,
      other: { guildId: other.guildId, channelId: other.channelIds[0]! },
      roleIds: { manager: managerRole, admin: adminRole },
    };
  });
}

/** Creates a webhook through HTTP as `account` and returns the response body. */
export async function createWebhook(
  baseUrl: string,
  channelId: string,
  account: Account,
  body: unknown = { name: 'Test Webhook' },
): Promise<WebhookResponse> {
  const answer = await call('POST', `${baseUrl}/v1/channels/${channelId}/webhooks`, { token: account.token, body });
  if (answer.status !== 200) throw new Error(`create failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** `count` webhooks straight into the table (for limits), bypassing the API. */
export async function insertWebhookRows(
  pool: Pool,
  guildId: string,
  channelIds: string[],
  count: number,
): Promise<void> {
  await pool.query(
    `INSERT INTO webhooks (id, guild_id, channel_id, name, token)
     SELECT i.id, $1, ($2::bigint[])[1 + i.n % cardinality($2::bigint[])], 'bulk ' || i.n, repeat('x', 64)
     FROM unnest($3::bigint[]) WITH ORDINALITY AS i (id, n)`,
    [guildId, channelIds, Array.from({ length: count }, () => ids.next())],
  );
}

/** Real magic bytes of each accepted format, padded; the sniffer reads only the header. */
export const IMAGES = {
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  jpeg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(32, 1)]),
  gif: Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0x80, 0, 0]), Buffer.alloc(16, 2)]),
  webp: Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(24, 3)]),
} as const;

export function dataUri(bytes: Buffer, mime = 'image/png'): string {
  return `data:${mime};base64,${bytes.toString('base64')}`;
}
