import { beforeAll, describe, expect, it } from 'vitest';
import { generateUserToken, hashCredential } from '@switchboard/auth';
import { call } from '@switchboard/testkit/http';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useGateway } from './helpers.ts';
import { createGuildFixture, createWebhook, ids, type Account, type GuildFixture } from './webhooks-fixtures.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment);

type Caller = 'owner' | 'admin' | 'manager' | 'bot' | 'member' | 'outsider' | 'none' | 'bad';

/** Expected status and code per caller; every allowed caller gets the route's success status. */
const DENIED: Record<'member' | 'outsider' | 'none' | 'bad', [number, string]> = {
  member: [403, 'MISSING_PERMISSIONS'],
  outsider: [403, 'MISSING_ACCESS'],
  none: [401, 'UNAUTHORIZED'],
  bad: [401, 'UNAUTHORIZED'],
};
const CALLERS: Caller[] = ['owner', 'admin', 'manager', 'bot', 'member', 'outsider', 'none', 'bad'];

function credentials(guild: GuildFixture, caller: Caller): { token?: string; scheme?: 'Bot' } {
  if (caller === 'none') return {};
  if (caller === 'bad') return { token: generateUserToken(guild.owner.id) };
  const account: Account = guild[caller];
  return caller === 'bot' ? { token: account.token, scheme: 'Bot' } : { token: account.token };
}

interface RouteCase {
  name: string;
  success: number;
  request: (guild: GuildFixture, webhook: { id: string }) => { method: string; path: string; body?: unknown };
}

const ROUTES: RouteCase[] = [
  {
    name: 'create',
    success: 200,
    request: (g) => ({ method: 'POST', path: `/v1/channels/${g.channelIds[1]}/webhooks`, body: { name: 'x' } }),
  },
  {
    name: 'list channel',
    success: 200,
    request: (g) => ({ method: 'GET', path: `/v1/channels/${g.channelIds[0]}/webhooks` }),
  },
  { name: 'list guild', success: 200, request: (g) => ({ method: 'GET', path: `/v1/guilds/${g.guildId}/webhooks` }) },
  { name: 'get', success: 200, request: (_g, w) => ({ method: 'GET', path: `/v1/webhooks/${w.id}` }) },
  {
    name: 'update',
    success: 200,
    request: (_g, w) => ({ method: 'PATCH', path: `/v1/webhooks/${w.id}`, body: { name: 'Hacked' } }),
  },
];

describe('permission matrix (owner, administrator, MANAGE_WEBHOOKS, bot, member, outsider, no token, bad token)', () => {
  let guild: GuildFixture;
  let webhook: { id: string };

  beforeAll(async () => {
    guild = await createGuildFixture(gateway.pool);
    webhook = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
  });

  for (const route of ROUTES) {
    for (const caller of CALLERS) {
      const expected = caller in DENIED ? DENIED[caller as keyof typeof DENIED] : [route.success, null];
      it(`${route.name} as ${caller}: ${expected[0]}`, async () => {
        const { method, path, body } = route.request(guild, webhook);
        const answer = await call(method, `${gateway.url}${path}`, {
          ...credentials(guild, caller),
          ...(body ? { body } : {}),
        });
        expect(answer.status).toBe(expected[0]);
        if (expected[1] !== null) expect(answer.body.code).toBe(expected[1]);
      });
    }
  }

  it('delete: 204 for each allowed caller, 403/401 for the others, the webhook surviving them', async () => {
    for (const caller of CALLERS) {
      const made = await createWebhook(gateway.url, guild.channelIds[1], guild.owner);
      const answer = await call('DELETE', `${gateway.url}/v1/webhooks/${made.id}`, credentials(guild, caller));
      const [status, code] = caller in DENIED ? DENIED[caller as keyof typeof DENIED] : [204, undefined];
      expect(answer.status, caller).toBe(status);
      if (code) expect(answer.body.code).toBe(code);
      const stillThere = await call('GET', `${gateway.url}/v1/webhooks/${made.id}`, { token: guild.owner.token });
      expect(stillThere.status, caller).toBe(status === 204 ? 404 : 200);
    }
  });

  it('answers 404 for an unknown webhook even to a caller without access (looked up first)', async () => {
    const answer = await call('GET', `${gateway.url}/v1/webhooks/999999999999999999`, { token: guild.member.token });
    expect([answer.status, answer.body.code]).toEqual([404, 'UNKNOWN_WEBHOOK']);
  });

  it('leaves a webhook unchanged after a refused PATCH', async () => {
    const read = await call('GET', `${gateway.url}/v1/webhooks/${webhook.id}`, { token: guild.owner.token });
    expect(read.body.name).not.toBe('Hacked-by-member');
    await call('PATCH', `${gateway.url}/v1/webhooks/${webhook.id}`, {
      token: guild.member.token,
      body: { name: 'Hacked-by-member' },
    });
    expect(
      (await call('GET', `${gateway.url}/v1/webhooks/${webhook.id}`, { token: guild.owner.token })).body.name,
    ).not.toBe('Hacked-by-member');
  });
});

describe('moving needs the permission in the (same) guild', () => {
  it('refuses a member and an outsider, who cannot move a webhook anywhere', async () => {
    const guild = await createGuildFixture(gateway.pool);
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const move = (account: Account) =>
      call('PATCH', `${gateway.url}/v1/webhooks/${made.id}`, {
        token: account.token,
        body: { channel_id: guild.channelIds[1] },
      });
    expect((await move(guild.member)).body.code).toBe('MISSING_PERMISSIONS');
    expect((await move(guild.outsider)).body.code).toBe('MISSING_ACCESS');
    expect((await move(guild.manager)).body.channel_id).toBe(guild.channelIds[1]);
  });
});

describe('user and bot tokens', () => {
  let guild: GuildFixture;

  beforeAll(async () => {
    guild = await createGuildFixture(gateway.pool);
  });

  const list = (authorization?: string) =>
    call(
      'GET',
      `${gateway.url}/v1/guilds/${guild.guildId}/webhooks`,
      authorization === undefined ? {} : { headers: { authorization } },
    );

  it('accepts the bare token, Bot and Bearer (any case)', async () => {
    for (const header of [
      guild.owner.token,
      `Bot ${guild.owner.token}`,
      `Bearer ${guild.owner.token}`,
      `bearer ${guild.bot.token}`,
      `BOT ${guild.bot.token}`,
    ]) {
      expect((await list(header)).status, header.split(' ')[0]).toBe(200);
    }
  });

  it('refuses with 401 what is not a live token', async () => {
    const revokedAccount = { id: ids.next() };
    const headers = [
      '',
      'Bot',
      `Admin ${guild.owner.token}`,
      `Basic ${guild.owner.token}`,
      `${guild.owner.token}x`,
      `Bot  ${guild.owner.token} extra`,
      generateUserToken(revokedAccount.id),
      'not-a-token',
    ];
    for (const header of headers) {
      const answer = await list(header);
      expect(answer.status, header).toBe(401);
      expect(answer.body).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized.' });
    }
    expect((await list()).status).toBe(401);
  });

  it('stops accepting a token as soon as its row is deleted', async () => {
    const fixture = await createGuildFixture(gateway.pool);
    const path = `/v1/guilds/${fixture.guildId}/webhooks`;
    expect((await call('GET', `${gateway.url}${path}`, { token: fixture.admin.token })).status).toBe(200);
    await gateway.pool.query('DELETE FROM user_tokens WHERE token_hash = $1', [hashCredential(fixture.admin.token)]);
    expect((await call('GET', `${gateway.url}${path}`, { token: fixture.admin.token })).status).toBe(401);
  });

  it('records last_seen_ip and last_seen_at off the request path, at most once a minute', async () => {
    const fixture = await createGuildFixture(gateway.pool);
    const seen = async () => {
      const { rows } = await gateway.pool.query<{ ip: string | null; at: Date | null }>(
        'SELECT host(last_seen_ip) AS ip, last_seen_at AS at FROM user_tokens WHERE token_hash = $1',
        [hashCredential(fixture.manager.token)],
      );
      return rows[0]!;
    };
    expect((await seen()).at).toBeNull();
    await call('GET', `${gateway.url}/v1/guilds/${fixture.guildId}/webhooks`, { token: fixture.manager.token });
    await expect.poll(async () => (await seen()).ip, { timeout: 5_000 }).toBe('127.0.0.1');
    const first = (await seen()).at!;
    await call('GET', `${gateway.url}/v1/guilds/${fixture.guildId}/webhooks`, { token: fixture.manager.token });
    // The second use within the minute is admitted by nobody: the row keeps the first time.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await seen()).at!.getTime()).toBe(first.getTime());
  });
});

describe('rate limits are per user', () => {
  it('gives each user their own webhook:create bucket on a channel (10 per minute)', async () => {
    const guild = await createGuildFixture(gateway.pool);
    const create = (account: Account) =>
      call('POST', `${gateway.url}/v1/channels/${guild.channelIds[0]}/webhooks`, {
        token: account.token,
        body: { name: 'x' },
      });
    for (let i = 0; i < 10; i++) expect((await create(guild.manager)).status).toBe(200);
    const limited = await create(guild.manager);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', global: false });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    const other = await create(guild.owner);
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-bucket')).toBe(`webhook:create:${guild.channelIds[0]}`);
  });
});
