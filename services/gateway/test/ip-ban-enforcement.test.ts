import { Agent, get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '@switchboard/testkit/network';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { adminCall, createAdmin, type AdminFixture } from './admin-helpers.ts';
import { banCaller, type BanCaller } from './bans-helpers.ts';
import { startGateway, type RunningGateway } from './helpers.ts';

const environment = useTestEnvironment();
let gateway: RunningGateway;
let admin: AdminFixture;
let bans: BanCaller;

const DISCOVERY = '/v1/.well-known/service';

beforeAll(async () => {
  gateway = await startGateway(environment, { RATE_LIMITS_ENABLED: 'false', TRUSTED_PROXY_HOPS: '1' });
  admin = await createAdmin(gateway.pool, ['*']);
  bans = banCaller(gateway.url, admin.key, { 'X-Forwarded-For': '198.18.0.1' });
});

afterAll(async () => {
  await gateway?.close();
});

/** The status of a GET sent through `agent`, noting the connection it went over. */
function statusOver(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  sockets: Set<unknown>,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent, headers }, (response) => {
      sockets.add(response.socket);
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    request.once('error', reject);
  });
}

function from(forwardedFor: string, path = DISCOVERY, init: RequestInit = {}): Promise<Response> {
  return fetch(`${gateway.url}${path}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), 'X-Forwarded-For': forwardedFor },
  });
}

describe('IP ban enforcement', () => {
  it('answers 403 IP_BANNED to a banned client on every route but health', async () => {
    expect((await bans('ip', 'add', { ips: ['192.0.2.66', '2001:db8:66::/48'] })).status).toBe(204);

    const banned = await from('192.0.2.66');
    expect(banned.status).toBe(403);
    expect(await banned.json()).toEqual({ code: 'IP_BANNED', message: "This user's IP is banned from this guild." });
    expect((await from('::ffff:192.0.2.66')).status).toBe(403);
    expect((await from('2001:db8:66:1::9')).status).toBe(403);
    expect((await from('192.0.2.66', '/v1/no-such-route')).status).toBe(403);
    // A valid admin key does not lift a ban.
    const adminAnswer = await adminCall(gateway.url, {
      method: 'POST',
      path: '/v1/admin/bans/ip/check',
      key: admin.key,
      body: { ip: '192.0.2.66' },
      headers: { 'X-Forwarded-For': '192.0.2.66' },
    });
    expect(adminAnswer.status).toBe(403);
    expect(adminAnswer.body.code).toBe('IP_BANNED');

    expect((await from('192.0.2.66', '/healthz')).status).toBe(200);
    expect((await from('192.0.2.66', '/readyz')).status).toBe(200);
    expect((await from('192.0.2.67')).status).toBe(200);
    expect((await from('2001:db8:67::1')).status).toBe(200);
  });

  it('reads the client from the trusted proxy hop: entries further left are forgeable', async () => {
    await bans('ip', 'add', { ip: '192.0.2.77' });
    expect((await from('192.0.2.77, 192.0.2.78')).status).toBe(200);
    expect((await from('192.0.2.78, 192.0.2.77')).status).toBe(403);
  });

  it('believes no X-Forwarded-For shorter than the trusted hops: a direct client cannot pose as another', async () => {
    const behindTwo = await startGateway(environment, { RATE_LIMITS_ENABLED: 'false', TRUSTED_PROXY_HOPS: '2' });
    try {
      await bans('ip', 'add', { ip: '192.0.2.88' });
      const fromTwo = (forwardedFor: string) =>
        fetch(`${behindTwo.url}${DISCOVERY}`, { headers: { 'X-Forwarded-For': forwardedFor } });
      // Through both proxies: the client is the second entry from the right.
      await waitFor(async () => (await fromTwo('192.0.2.88, 10.0.0.2')).status === 403);
      // One entry, written by whoever connected: the socket address is the client, not 192.0.2.88.
      expect((await fromTwo('192.0.2.88')).status).toBe(200);
    } finally {
      await behindTwo.close();
    }
  });

  it('judges every request of one keep-alive connection by its own client address, against the bans of that moment', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sockets = new Set<unknown>();
      const onOne = (forwardedFor: string) =>
        statusOver(agent, `${gateway.url}${DISCOVERY}`, { 'X-Forwarded-For': forwardedFor }, sockets);
      expect(await onOne('192.0.2.91')).toBe(200);
      await bans('ip', 'add', { ip: '192.0.2.91' });
      expect(await onOne('192.0.2.91')).toBe(403);
      expect(await onOne('192.0.2.92')).toBe(200);
      expect(await onOne('192.0.2.91')).toBe(403);
      await bans('ip', 'remove', { ip: '192.0.2.91' });
      expect(await onOne('192.0.2.91')).toBe(200);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('lifts a ban on removal at once', async () => {
    await bans('ip', 'add', { ip: '192.0.2.88' });
    expect((await from('192.0.2.88')).status).toBe(403);
    await bans('ip', 'remove', { ip: '192.0.2.88' });
    expect((await from('192.0.2.88')).status).toBe(200);
  });
});

describe('IP ban enforcement before the bans are loaded', () => {
  it('answers 503 past IP_BANS_LOAD_WAIT_MS rather than serving unchecked, while health answers', async () => {
    const deadDatabase = `postgres://postgres@127.0.0.1:${await closedPort()}/none`;
    const unloaded = await startGateway(environment, { DATABASE_URL: deadDatabase, IP_BANS_LOAD_WAIT_MS: '100' });
    try {
      const started = performance.now();
      const answer = await fetch(`${unloaded.url}${DISCOVERY}`);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(((await answer.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
      expect(performance.now() - started).toBeGreaterThanOrEqual(90);
      expect((await fetch(`${unloaded.url}/healthz`)).status).toBe(200);
    } finally {
      await unloaded.close();
    }
  });
});
