import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { snowflakeTimestamp } from '@switchboard/snowflake';
import { call } from '@switchboard/testkit/http';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useGateway } from './helpers.ts';
import { Permission } from '@switchboard/contracts';
import { createGuildFixture, createWebhook, EVERYONE, ids, type GuildFixture } from './webhooks-fixtures.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment);
let guild: GuildFixture;
/** Ids of the 60 messages of channel 0, oldest first. */
let messageIds: string[];

beforeAll(async () => {
  guild = await createGuildFixture(gateway.pool);
  messageIds = Array.from({ length: 60 }, () => ids.next());
  await gateway.pool.query(
    `INSERT INTO messages (id, channel_id, guild_id, author_id, content)
     SELECT m.id, $1, $2, $3, 'message ' || m.n FROM unnest($4::bigint[]) WITH ORDINALITY AS m (id, n)`,
    [guild.channelIds[0], guild.guildId, guild.member.id, messageIds],
  );
});

const list = (query = '', token = guild.member.token, channelId = guild.channelIds[0]) =>
  call('GET', `${gateway.url}/v1/channels/${channelId}/messages${query}`, { token });
const idsOf = (body: Array<{ id: string }>) => body.map((m) => m.id);
/** messageIds[from..to) newest first. */
const newestFirst = (from: number, to: number) => messageIds.slice(from, to).reverse();

describe('paging', () => {
  it('answers the 50 newest, newest first, by default', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(idsOf(answer.body)).toEqual(newestFirst(10, 60));
  });

  it('honours limit, before and after (after: the messages right after it, still newest first)', async () => {
    expect(idsOf((await list('?limit=5')).body)).toEqual(newestFirst(55, 60));
    expect(idsOf((await list(`?limit=10&before=${messageIds[30]}`)).body)).toEqual(newestFirst(20, 30));
    expect(idsOf((await list(`?limit=10&after=${messageIds[30]}`)).body)).toEqual(newestFirst(31, 41));
    expect(idsOf((await list(`?after=${messageIds[5]}&before=${messageIds[9]}`)).body)).toEqual(newestFirst(6, 9));
    expect(idsOf((await list(`?limit=100&after=${messageIds[0]}`)).body)).toEqual(newestFirst(1, 60));
    expect((await list(`?before=${messageIds[0]}`)).body).toEqual([]);
  });

  it('refuses out-of-range limits and malformed ids with 400 at the parameter', async () => {
    for (const [query, path] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=x', 'limit'],
      ['?before=abc', 'before'],
      ['?after=-1', 'after'],
    ]) {
      const answer = await list(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors[0].path).toBe(path);
    }
    expect((await list('?limit=')).body).toHaveLength(50);
  });
});

describe('message shape', () => {
  it('presents a user message Discord-shaped', async () => {
    const [message] = (await list('?limit=1')).body;
    const id = messageIds[59]!;
    expect(message).toEqual({
      id,
      type: 0,
      content: 'message 60',
      channel_id: guild.channelIds[0],
      guild_id: guild.guildId,
      author: expect.objectContaining({ id: guild.member.id, discriminator: '0000', avatar: null }),
      attachments: [],
      embeds: [],
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      pinned: false,
      tts: false,
      timestamp: snowflakeTimestamp(id).toISOString(),
      edited_timestamp: null,
      flags: 0,
    });
    expect(message.author).not.toHaveProperty('bot');
  });

  it('makes the webhook the author of its messages, from the snapshot taken at send time', async () => {
    const made = await createWebhook(gateway.url, guild.channelIds[1], guild.owner, { name: 'Deploys' });
    const messageId = ids.next();
    const embed = { type: 'rich', title: 'Build passed', color: 0 };
    // As the webhook worker stores it: no author row, the webhook's name as it was then.
    await gateway.pool.query(
      `INSERT INTO messages (id, channel_id, guild_id, webhook_id, webhook_name, content, embeds)
       VALUES ($1, $2, $3, $4, 'Deploys', 'shipped', $5::jsonb)`,
      [messageId, guild.channelIds[1], guild.guildId, made.id, JSON.stringify([embed])],
    );
    await call('PATCH', `${gateway.url}/v1/webhooks/${made.id}`, {
      token: guild.owner.token,
      body: { name: 'Renamed later' },
    });
    const [message] = (await list('', guild.member.token, guild.channelIds[1])).body;
    expect(message).toMatchObject({
      id: messageId,
      webhook_id: made.id,
      content: 'shipped',
      embeds: [embed],
      author: { id: made.id, username: 'Deploys', discriminator: '0000', avatar: null, bot: true, flags: 0 },
    });
  });
});

describe('access', () => {
  it('lets any member read (owner, plain member, bot), refuses outsiders with 403 MISSING_ACCESS', async () => {
    for (const account of [guild.owner, guild.member]) expect((await list('?limit=1', account.token)).status).toBe(200);
    const bot = await call('GET', `${gateway.url}/v1/channels/${guild.channelIds[0]}/messages?limit=1`, {
      token: guild.bot.token,
      scheme: 'Bot',
    });
    expect(bot.status).toBe(200);
    const outsider = await list('', guild.outsider.token);
    expect([outsider.status, outsider.body.code]).toEqual([403, 'MISSING_ACCESS']);
  });

  it('answers 401 without a valid token, 404 for unknown and DM channels, 400 for a bad channel id', async () => {
    expect((await call('GET', `${gateway.url}/v1/channels/${guild.channelIds[0]}/messages`)).status).toBe(401);
    expect((await list('', 'garbage')).status).toBe(401);
    for (const channelId of ['999999999999999999', guild.dmChannelId]) {
      const answer = await list('', guild.member.token, channelId);
      expect([answer.status, answer.body.code]).toEqual([404, 'UNKNOWN_CHANNEL']);
    }
    expect((await list('', guild.member.token, 'general')).status).toBe(400);
  });

  it('answers an empty page for a channel without messages', async () => {
    const answer = await list('', guild.member.token, guild.voiceChannelId);
    expect([answer.status, answer.body]).toEqual([200, []]);
  });
});

describe('channel permissions', () => {
  const { VIEW_CHANNEL, READ_MESSAGE_HISTORY, MANAGE_WEBHOOKS } = Permission;
  const READ = VIEW_CHANNEL | READ_MESSAGE_HISTORY;
  /** A guild of its own: these tests change its roles and overwrites. */
  let g: GuildFixture;
  beforeEach(async () => {
    g = await createGuildFixture(gateway.pool);
  });
  const setEveryone = (permissions: bigint) =>
    gateway.pool.query('UPDATE roles SET permissions = $2 WHERE id = $1', [g.guildId, permissions]);
  /** type 0: a role (the guild id: @everyone), type 1: a member. */
  const overwrite = (channelId: string, targetId: string, type: 0 | 1, bits: { allow?: bigint; deny?: bigint }) =>
    gateway.pool.query(
      'INSERT INTO channel_permission_overwrites (channel_id, target_id, type, allow, deny) VALUES ($1, $2, $3, $4, $5)',
      [channelId, targetId, type, bits.allow ?? 0n, bits.deny ?? 0n],
    );
  const read = (account: { token: string }, channelId = g.channelIds[0]) => list('?limit=1', account.token, channelId);
  const outcome = async (account: { token: string }, channelId?: string) => {
    const answer = await read(account, channelId);
    return answer.status === 200 ? 200 : [answer.status, answer.body.code];
  };
  const DENIED = [403, 'MISSING_PERMISSIONS'];

  it('refuses a member without a role once @everyone lost VIEW_CHANNEL or READ_MESSAGE_HISTORY', async () => {
    expect(await outcome(g.member)).toBe(200);
    for (const without of [VIEW_CHANNEL, READ_MESSAGE_HISTORY, READ]) {
      await setEveryone(EVERYONE & ~without);
      expect(await outcome(g.member), String(without)).toEqual(DENIED);
      // The owner and ADMINISTRATOR holders hold every bit whatever @everyone has.
      expect(await outcome(g.owner)).toBe(200);
      expect(await outcome(g.admin)).toBe(200);
    }
  });

  it('applies channel overwrites: @everyone, then the roles together, then the member', async () => {
    await overwrite(g.channelIds[0], g.guildId, 0, { deny: VIEW_CHANNEL });
    expect(await outcome(g.member)).toEqual(DENIED);
    expect(await outcome(g.member, g.channelIds[1])).toBe(200);
    // A role's allow wins over @everyone's deny ...
    await overwrite(g.channelIds[0], g.roleIds.manager, 0, { allow: VIEW_CHANNEL });
    expect(await outcome(g.manager)).toBe(200);
    expect(await outcome(g.member)).toEqual(DENIED);
    // ... and the member's own deny over their roles' allow; their own allow over both.
    await overwrite(g.channelIds[0], g.manager.id, 1, { deny: READ_MESSAGE_HISTORY });
    expect(await outcome(g.manager)).toEqual(DENIED);
    await overwrite(g.channelIds[0], g.member.id, 1, { allow: VIEW_CHANNEL });
    expect(await outcome(g.member)).toBe(200);
    // Overwrites take nothing from the owner and administrators.
    await overwrite(g.channelIds[0], g.roleIds.admin, 0, { deny: READ });
    await overwrite(g.channelIds[0], g.owner.id, 1, { deny: READ });
    expect(await outcome(g.admin)).toBe(200);
    expect(await outcome(g.owner)).toBe(200);
  });

  it('lets a channel overwrite grant MANAGE_WEBHOOKS in that channel only', async () => {
    await overwrite(g.channelIds[0], g.member.id, 1, { allow: MANAGE_WEBHOOKS });
    await createWebhook(gateway.url, g.channelIds[0], g.member);
    const elsewhere = await call('POST', `${gateway.url}/v1/channels/${g.channelIds[1]}/webhooks`, {
      token: g.member.token,
      body: { name: 'x' },
    });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([403, 'MISSING_PERMISSIONS']);
    await overwrite(g.channelIds[1], g.roleIds.manager, 0, { deny: MANAGE_WEBHOOKS });
    const denied = await call('POST', `${gateway.url}/v1/channels/${g.channelIds[1]}/webhooks`, {
      token: g.manager.token,
      body: { name: 'x' },
    });
    expect([denied.status, denied.body.code]).toEqual([403, 'MISSING_PERMISSIONS']);
  });
});
