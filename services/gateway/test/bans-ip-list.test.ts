import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createAdmin, type AdminFixture } from './admin-helpers.ts';
import { startDnsServer, reverseName, type TestDnsServer } from './bans-dns-server.ts';
import { banCaller, type BanCaller } from './bans-helpers.ts';
import { gatewayConfig, startGateway, type RunningGateway } from './helpers.ts';

const environment = useTestEnvironment();
let dns: TestDnsServer;
let gateway: RunningGateway;
let admin: AdminFixture;
let bans: BanCaller;

const NAMED = '192.0.2.80';
const SILENT = '192.0.2.81';
const UNNAMED = '192.0.2.82';
const TIMEOUT_MS = 200;

beforeAll(async () => {
  dns = await startDnsServer({ ptr: { [reverseName(NAMED)]: 'host80.example.test' }, silent: [reverseName(SILENT)] });
  gateway = await startGateway(environment, {
    RATE_LIMITS_ENABLED: 'false',
    DNS_SERVERS: dns.address,
    REVERSE_DNS_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  admin = await createAdmin(gateway.pool, ['*']);
  bans = banCaller(gateway.url, admin.key);
});

afterAll(async () => {
  await gateway?.close();
  await dns?.close();
});

interface ListedIp {
  ip: string;
  reverse_dns: string | null;
}

async function listAll(): Promise<ListedIp[]> {
  const answer = await bans('ip', 'list', { limit: 500 });
  expect(answer.status).toBe(200);
  return answer.body.bans;
}

describe('IP ban list: reverse DNS', () => {
  it('names single addresses from PTR records, null for none, a timeout or a range, and caches for a day', async () => {
    await bans('ip', 'add', { ips: [NAMED, SILENT, UNNAMED, '192.0.2.128/25'] });
    const started = performance.now();
    const first = await listAll();
    // Lookups run at once: one timeout bounds the whole list, not one per address.
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS * 4);
    const byIp = new Map(first.map((ban) => [ban.ip, ban.reverse_dns]));
    expect(byIp.get(NAMED)).toBe('host80.example.test');
    expect(byIp.get(SILENT)).toBeNull();
    expect(byIp.get(UNNAMED)).toBeNull();
    expect(byIp.get('192.0.2.128/25')).toBeNull();
    expect(dns.queries(reverseName(NAMED))).toBe(1);
    expect(dns.queries(reverseName(UNNAMED))).toBe(1);
    expect(dns.queries(reverseName(SILENT))).toBeGreaterThanOrEqual(1);
    expect(dns.queries('128.2.0.192.in-addr.arpa')).toBe(0);

    const silentQueries = dns.queries(reverseName(SILENT));
    const second = await listAll();
    expect(new Map(second.map((ban) => [ban.ip, ban.reverse_dns]))).toEqual(byIp);
    expect(dns.queries(reverseName(NAMED))).toBe(1);
    expect(dns.queries(reverseName(UNNAMED))).toBe(1);
    // A failure is cached too (briefly), so a dead resolver does not slow every list.
    expect(dns.queries(reverseName(SILENT))).toBe(silentQueries);

    const prefix = gateway.config.REDIS_PREFIX;
    expect(await gateway.redis.get(`${prefix}:rdns:${NAMED}`)).toBe('host80.example.test');
    expect(await gateway.redis.ttl(`${prefix}:rdns:${NAMED}`)).toBeGreaterThan(86_000);
    expect(await gateway.redis.get(`${prefix}:rdns:${UNNAMED}`)).toBe('');
    expect(await gateway.redis.ttl(`${prefix}:rdns:${SILENT}`)).toBeLessThanOrEqual(60);
  });
});

describe('IP ban list: pages', () => {
  it('pages newest first by cursor, with every field of an entry, hiding expired bans unless asked', async () => {
    const addresses = Array.from({ length: 5 }, (_, i) => `198.51.100.${i + 1}`);
    for (const ip of addresses) await bans('ip', 'add', { ip, reason: `r${ip}`, expires_at: '2999-01-01T00:00:00Z' });
    await bans('ip', 'add', { ip: '198.51.100.99', expires_in_seconds: 1 });

    const seen: Array<Record<string, unknown>> = [];
    let cursor: string | null = null;
    do {
      const answer = await bans('ip', 'list', { limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...answer.body.bans);
      cursor = answer.body.next_cursor;
    } while (cursor);
    const ours = seen.filter((ban) => typeof ban['ip'] === 'string' && (ban['ip'] as string).startsWith('198.51.100.'));
    expect(ours.map((ban) => ban['ip'])).toEqual(['198.51.100.99', ...[...addresses].reverse()]);
    expect(ours[1]).toEqual({
      ip: '198.51.100.5',
      reverse_dns: null,
      reason: 'r198.51.100.5',
      expires_at: '2999-01-01T00:00:00.000Z',
      created_by: admin.adminId,
      created_at: expect.any(String),
    });

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const live = (await listAll()).map((ban) => ban.ip);
    expect(live).not.toContain('198.51.100.99');
    const all = await bans('ip', 'list', { limit: 500, include_expired: true });
    expect(all.body.bans.map((ban: ListedIp) => ban.ip)).toContain('198.51.100.99');
  });
});

describe('reverse DNS configuration', () => {
  it('takes comma-separated resolvers with ports and refuses anything else', () => {
    expect(gatewayConfig(environment, { DNS_SERVERS: '127.0.0.1:5353, [::1]:53,10.0.0.2' }).DNS_SERVERS).toEqual([
      '127.0.0.1:5353',
      '[::1]:53',
      '10.0.0.2',
    ]);
    expect(gatewayConfig(environment).DNS_SERVERS).toEqual([]);
    expect(() => gatewayConfig(environment, { DNS_SERVERS: 'dns.example.com' })).toThrow(/DNS_SERVERS/);
    expect(() => gatewayConfig(environment, { REVERSE_DNS_TIMEOUT_MS: '0' })).toThrow(/REVERSE_DNS_TIMEOUT_MS/);
  });
});

describe('IP ban list: contains', () => {
  it('filters by the canonical network or the form it was written in', async () => {
    await bans('ip', 'add', { ips: ['198.18.7.1', '198.18.7.0/30', '2001:DB8:0:0::7'] });
    const byNetwork = await bans('ip', 'list', { contains: '198.18.7.' });
    expect((byNetwork.body.bans as ListedIp[]).map((ban) => ban.ip).sort()).toEqual(['198.18.7.0/30', '198.18.7.1']);
    const byWritten = await bans('ip', 'list', { contains: '2001:db8:0:0' });
    expect((byWritten.body.bans as ListedIp[]).map((ban) => ban.ip)).toHaveLength(1);
  });
});
