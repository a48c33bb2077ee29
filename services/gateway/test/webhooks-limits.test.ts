import { describe, expect, it } from 'vitest';
import { LIMITS } from '@switchboard/contracts';
import { call } from '@switchboard/testkit/http';
import { serveOnFreePort } from '@switchboard/testkit/network';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createPool } from '@switchboard/db';
import { createLogger } from '@switchboard/logger';
import { createApp } from '../src/index.ts';
import { gatewayConfig, useGateway } from './helpers.ts';
import { createGuildFixture, createWebhook, insertWebhookRows, type GuildFixture } from './webhooks-fixtures.ts';

const environment = useTestEnvironment();
// Explicitly off (docs/decisions.md#rate-limits): these tests create more webhooks per channel and minute
// than the webhook:create bucket admits, to reach the count limits and race them.
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });

/**
 * The shared helper's gateway has a pool of 4, which lets at most four creates overlap; this one
 * has 20 connections, so a race between count and insert has every chance to show.
 */
async function withWidePool<T>(work: (url: string) => Promise<T>): Promise<T> {
  const config = gatewayConfig(environment, { RATE_LIMITS_ENABLED: 'false' });
  const pool = createPool({ connectionString: config.DATABASE_URL, max: 20 });
  const app = createApp({
    config,
    logger: createLogger('limits-test', 'silent'),
    pool,
    redis: gateway.redis,
    storage: gateway.storage,
    // One process, so one lease: both apps make ids from the same generator.
    snowflakeLease: gateway.snowflakeLease,
  });
  const served = await serveOnFreePort(app);
  try {
    return await work(served.url);
  } finally {
    await served.close();
    await pool.end();
  }
}

async function countWebhooks(where: { guildId?: string; channelId?: string }): Promise<number> {
  const { rows } = await gateway.pool.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM webhooks WHERE ($1::bigint IS NULL OR guild_id = $1) AND ($2::bigint IS NULL OR channel_id = $2)',
    [where.guildId ?? null, where.channelId ?? null],
  );
  return rows[0]!.count;
}

const create = (guild: GuildFixture, channelId: string, url = gateway.url) =>
  call('POST', `${url}/v1/channels/${channelId}/webhooks`, { token: guild.owner.token, body: { name: 'limited' } });

describe('15 per channel', () => {
  it('refuses the 16th with 400 MAX_WEBHOOKS; another channel still has room', async () => {
    const guild = await createGuildFixture(gateway.pool);
    await insertWebhookRows(gateway.pool, guild.guildId, [guild.channelIds[0]], LIMITS.webhooks.perChannel - 1);
    expect((await create(guild, guild.channelIds[0])).status).toBe(200);
    const refused = await create(guild, guild.channelIds[0]);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      code: 'MAX_WEBHOOKS',
      message: 'Maximum number of webhooks per channel reached (15).',
    });
    expect((await create(guild, guild.channelIds[1])).status).toBe(200);
    expect(await countWebhooks({ channelId: guild.channelIds[0] })).toBe(15);
  });

  it('refuses a move into a full channel with 400 MAX_WEBHOOKS, leaving the webhook where it was', async () => {
    const guild = await createGuildFixture(gateway.pool);
    await insertWebhookRows(gateway.pool, guild.guildId, [guild.channelIds[1]], LIMITS.webhooks.perChannel);
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const moved = await call('PATCH', `${gateway.url}/v1/webhooks/${made.id}`, {
      token: guild.owner.token,
      body: { channel_id: guild.channelIds[1], name: 'renamed' },
    });
    expect([moved.status, moved.body.code]).toEqual([400, 'MAX_WEBHOOKS']);
    const read = await call('GET', `${gateway.url}/v1/webhooks/${made.id}`, { token: guild.owner.token });
    expect(read.body).toMatchObject({ channel_id: guild.channelIds[0], name: made.name });
  });

  it('lets exactly 15 exist when 20 creates race on a channel holding 10', async () => {
    const guild = await createGuildFixture(gateway.pool);
    await insertWebhookRows(gateway.pool, guild.guildId, [guild.channelIds[0]], 10);
    const answers = await withWidePool((url) =>
      Promise.all(Array.from({ length: 20 }, () => create(guild, guild.channelIds[0], url))),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.code === 'MAX_WEBHOOKS')).toBe(true);
    expect(statuses.filter((s) => s === 400)).toHaveLength(15);
    expect(await countWebhooks({ channelId: guild.channelIds[0] })).toBe(15);
  });
});

describe('1000 per guild, checked before the channel', () => {
  it('admits the 1000th, refuses the 1001st with MAX_WEBHOOKS_PER_GUILD even on a full channel, and has room after a delete', async () => {
    const guild = await createGuildFixture(gateway.pool);
    // Straight into the table, all on one channel (the API would refuse that channel at 15).
    await insertWebhookRows(gateway.pool, guild.guildId, [guild.channelIds[1]], LIMITS.webhooks.perGuild - 1);
    const thousandth = await create(guild, guild.channelIds[0]);
    expect(thousandth.status).toBe(200);
    const refused = await create(guild, guild.channelIds[0]);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      code: 'MAX_WEBHOOKS_PER_GUILD',
      message: 'Maximum number of webhooks per guild reached (1000).',
    });
    // Channel 1 is over its own limit too: the guild limit is reported, as it is checked first.
    expect((await create(guild, guild.channelIds[1])).body.code).toBe('MAX_WEBHOOKS_PER_GUILD');
    expect(
      (await call('DELETE', `${gateway.url}/v1/webhooks/${thousandth.body.id}`, { token: guild.owner.token })).status,
    ).toBe(204);
    expect((await create(guild, guild.channelIds[0])).status).toBe(200);
    expect(await countWebhooks({ guildId: guild.guildId })).toBe(1000);
  });

  it('lets exactly 1000 exist when creates race on two channels of a guild holding 995', async () => {
    const guild = await createGuildFixture(gateway.pool);
    await insertWebhookRows(gateway.pool, guild.guildId, [guild.voiceChannelId], LIMITS.webhooks.perGuild - 5);
    const answers = await withWidePool((url) =>
      Promise.all(Array.from({ length: 20 }, (_, i) => create(guild, guild.channelIds[i % 2]!, url))),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 400 && a.body.code === 'MAX_WEBHOOKS_PER_GUILD')).toHaveLength(15);
    expect(await countWebhooks({ guildId: guild.guildId })).toBe(1000);
  });
});
