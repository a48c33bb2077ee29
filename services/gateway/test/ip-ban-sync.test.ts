import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertIpBans, withTransaction } from '@switchboard/db';
import { parseIpNetwork } from '@switchboard/ip';
import { createLogger } from '@switchboard/logger';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { createIpBans, ipBanChannel, ipBanSequenceKey, loadIpBans } from '../src/ip-bans/index.ts';
import { createAdmin, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import { banCaller, type BanCaller } from './bans-helpers.ts';
import { startGateway, type RunningGateway } from './helpers.ts';

const environment = useTestEnvironment();
/** Two replicas on one PostgreSQL and Redis (same prefix). */
let first: RunningGateway;
let second: RunningGateway;
let admin: AdminFixture;
let bansViaFirst: BanCaller;

const SETTINGS = { RATE_LIMITS_ENABLED: 'false', TRUSTED_PROXY_HOPS: '1' };

beforeAll(async () => {
  [first, second] = await Promise.all([startGateway(environment, SETTINGS), startGateway(environment, SETTINGS)]);
  admin = await createAdmin(first.pool, ['*']);
  bansViaFirst = banCaller(first.url, admin.key, { 'X-Forwarded-For': '198.18.0.1' });
});

afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
});

async function status(gateway: RunningGateway, forwardedFor: string): Promise<number> {
  const response = await fetch(`${gateway.url}/v1/.well-known/service`, {
    headers: { 'X-Forwarded-For': forwardedFor },
  });
  await response.arrayBuffer();
  return response.status;
}

/** A ban written to the database behind the replicas' backs: only a reload can find it. */
async function insertSilently(network: string): Promise<void> {
  await upsertIpBans(first.pool, [{ id: fixtureIds.next(), network, display: network }], {
    reason: null,
    expiresAt: null,
    createdBy: admin.adminId,
  });
}

async function checkOnSecond(ip: string): Promise<unknown> {
  const answer = await banCaller(second.url, admin.key, { 'X-Forwarded-For': '198.18.0.1' })('ip', 'check', { ip });
  return answer.body;
}

describe('IP bans across replicas', () => {
  it('a ban added on one replica is enforced by the other within a second, and so is its removal', async () => {
    await status(second, '192.0.2.5'); // the second replica is loaded
    expect((await bansViaFirst('ip', 'add', { ip: '192.0.2.0/28' })).status).toBe(204);
    const banStarted = performance.now();
    await waitFor(async () => (await status(second, '192.0.2.5')) === 403, 2_000);
    expect(performance.now() - banStarted).toBeLessThan(1_000);
    const check = await checkOnSecond('192.0.2.9');
    expect(check).toMatchObject({ banned: true, matched: '192.0.2.0/28' });

    await bansViaFirst('ip', 'remove', { ip: '192.0.2.0/28' });
    const liftStarted = performance.now();
    await waitFor(async () => (await status(second, '192.0.2.5')) === 200, 2_000);
    expect(performance.now() - liftStarted).toBeLessThan(1_000);
  });

  it('reloads everything when a sequence number is skipped', async () => {
    await insertSilently('192.0.2.32/28');
    expect(await status(second, '192.0.2.33')).toBe(200);
    // A message numbered two past the last: the one in between was missed.
    const seq = await first.redis.incrby(ipBanSequenceKey(first.config.REDIS_PREFIX), 2);
    await first.redis.publish(ipBanChannel(first.config.REDIS_PREFIX), `${seq} {"adds":[],"removes":[]}`);
    // Each replica hears the gap and reloads on its own, in no set order.
    await waitFor(async () => (await status(second, '192.0.2.33')) === 403, 3_000);
    await waitFor(async () => (await status(first, '192.0.2.33')) === 403, 3_000);
  });

  it('reloads everything when an unreadable message arrives', async () => {
    await insertSilently('192.0.2.48/28');
    expect(await status(second, '192.0.2.49')).toBe(200);
    await first.redis.publish(ipBanChannel(first.config.REDIS_PREFIX), 'not a change');
    await waitFor(async () => (await status(second, '192.0.2.49')) === 403, 3_000);
  });

  it('reloads everything after the subscription connection comes back', async () => {
    await insertSilently('192.0.2.64/28');
    expect(await status(second, '192.0.2.65')).toBe(200);
    const name = `ip-bans:${first.config.REDIS_PREFIX}`;
    const clients = String(await first.redis.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
    const ids = [...clients.matchAll(/^id=(\d+) .* name=(\S+) /gm)]
      .filter((match) => match[2] === name)
      .map((match) => match[1]!);
    expect(ids).toHaveLength(2);
    for (const id of ids) await first.redis.call('CLIENT', 'KILL', 'ID', id);
    await waitFor(async () => (await status(second, '192.0.2.65')) === 403, 5_000);
    // Changes flow again over the new subscription.
    await bansViaFirst('ip', 'add', { ip: '192.0.2.80' });
    await waitFor(async () => (await status(second, '192.0.2.80')) === 403, 1_000);
  });

  it('stays right while a tiny overlay limit folds every change into a rebuilt base', async () => {
    const folding = await startGateway(environment, { ...SETTINGS, IP_BANS_OVERLAY_LIMIT: '1' });
    try {
      const bans = banCaller(folding.url, admin.key, { 'X-Forwarded-For': '198.18.0.1' });
      const addresses = ['192.0.2.160', '192.0.2.161', '192.0.2.162', '192.0.2.163'];
      for (const ip of addresses) await bans('ip', 'add', { ip });
      await bans('ip', 'add', { ip: '192.0.2.160/28', reason: 'range' });
      await bans('ip', 'remove', { ips: ['192.0.2.161', '192.0.2.160/28'] });
      await bans('ip', 'add', { ip: '192.0.2.161', reason: 'again' });
      for (const [ip, expected] of [
        ['192.0.2.160', 403],
        ['192.0.2.161', 403],
        ['192.0.2.163', 403],
        ['192.0.2.164', 200],
      ] as const) {
        expect(await status(folding, ip)).toBe(expected);
        await waitFor(async () => (await status(second, ip)) === expected, 1_000);
      }
      expect((await bans('ip', 'check', { ip: '192.0.2.161' })).body).toMatchObject({
        matched: '192.0.2.161',
        reason: 'again',
      });
    } finally {
      await folding.close();
    }
  });

  it('reloads everything periodically, the safety net for a change never published', async () => {
    const periodic = await startGateway(environment, { ...SETTINGS, IP_BANS_FULL_RELOAD_MS: '1000' });
    try {
      expect(await status(periodic, '192.0.2.97')).toBe(200);
      await insertSilently('192.0.2.96/28');
      await waitFor(async () => (await status(periodic, '192.0.2.97')) === 403, 3_000);
    } finally {
      await periodic.close();
    }
  });
});

describe('IP ban loading', () => {
  it('reads every live ban page by page in network order, across families, skipping expired ones', async () => {
    const networks = [
      '2001:db8:1::/48',
      '198.51.100.0/24',
      '198.51.100.9',
      '::ffff:198.51.100.10',
      '2001:db8:1::1',
      '0.0.0.0/1',
    ];
    for (const network of networks) await insertSilently(parseIpNetwork(network)!.canonical);
    await upsertIpBans(first.pool, [{ id: fixtureIds.next(), network: '198.51.101.0/24', display: 'x' }], {
      reason: null,
      expiresAt: new Date(Date.now() + 30),
      createdBy: admin.adminId,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { rows } = await first.pool.query<{ live: number }>(
      'SELECT count(*)::int AS live FROM ip_bans WHERE expires_at IS NULL OR expires_at > now()',
    );
    const { index, skipped } = await loadIpBans(first.pool, 2);
    expect(skipped).toBe(0);
    expect(index.size).toBe(rows[0]!.live);
    const match = (text: string) => index.match(parseIpNetwork(text)!)?.network.canonical ?? null;
    expect(match('198.51.100.9')).toBe('198.51.100.9');
    expect(match('198.51.100.10')).toBe('198.51.100.10');
    expect(match('198.51.100.11')).toBe('198.51.100.0/24');
    expect(match('2001:db8:1::1')).toBe('2001:db8:1::1');
    expect(match('2001:db8:1::2')).toBe('2001:db8:1::/48');
    expect(match('100.0.0.1')).toBe('0.0.0.0/1');
    expect(match('198.51.101.1')).toBeNull();
  });
});

async function changeCounter(): Promise<string> {
  const { rows } = await first.pool.query<{ version: string }>('SELECT version FROM ip_bans_version');
  return rows[0]!.version;
}

describe('IP ban change counter', () => {
  it('is read from the snapshot the bans were loaded from, and moves with every change', async () => {
    const before = await changeCounter();
    const loaded = await loadIpBans(first.pool);
    expect(loaded.version).toBe(before);
    await insertSilently('198.51.103.1');
    const after = await loadIpBans(first.pool);
    expect(BigInt(after.version)).toBeGreaterThan(BigInt(before));
    expect(after.version).toBe(await changeCounter());
    expect(after.index.match(parseIpNetwork('198.51.103.1')!, Date.now())?.network.canonical).toBe('198.51.103.1');
  });

  it('gates the periodic reload: nothing is reloaded until the counter moves', async () => {
    const ipBans = createIpBans({
      pool: first.pool,
      redis: first.redis,
      prefix: first.config.REDIS_PREFIX,
      logger: createLogger('ip-ban-sync-test', 'silent'),
      fullReloadMs: 86_400_000,
      overlayLimit: 10_000,
    });
    try {
      expect(await ipBans.whenLoaded(5_000)).toBe(true);
      const unseen = parseIpNetwork('192.0.2.200')!;
      // Written with triggers off: the counter stays put, as if nothing had changed.
      await withTransaction(first.pool, async (client) => {
        await client.query('SET LOCAL session_replication_role = replica');
        await upsertIpBans(client, [{ id: fixtureIds.next(), network: unseen.canonical, display: unseen.canonical }], {
          reason: null,
          expiresAt: null,
          createdBy: admin.adminId,
        });
      });
      await ipBans.reloadIfChanged('test');
      expect(ipBans.covers(unseen)).toBe(false);
      await first.pool.query('UPDATE ip_bans_version SET version = version + 1');
      await ipBans.reloadIfChanged('test');
      expect(ipBans.covers(unseen)).toBe(true);
      expect(ipBans.match(unseen)?.network.canonical).toBe('192.0.2.200');
    } finally {
      await ipBans.close();
    }
  });
});

describe('IP bans stored as IPv4-mapped IPv6', () => {
  it('load as the IPv4 network, as the parser reads them', async () => {
    await first.pool.query(
      `INSERT INTO ip_bans (id, network, display, reason, expires_at) VALUES ($1, '::ffff:198.51.102.0/120', 'mapped', 'mapped', now() + interval '1 hour')`,
      [fixtureIds.next()],
    );
    const { index, skipped } = await loadIpBans(first.pool, 3);
    expect(skipped).toBe(0);
    const entry = index.match(parseIpNetwork('198.51.102.7')!, Date.now());
    expect(entry).toMatchObject({ network: { canonical: '198.51.102.0/24', family: 4 }, reason: 'mapped' });
    expect(entry!.expiresAtMs).toBeGreaterThan(Date.now());
  });
});
