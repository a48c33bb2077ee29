import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsers, insertUserTokens, recordUserTokenSeen } from '@switchboard/db';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createAdmin, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import { banCaller, type AuditRow, type BanCaller } from './bans-helpers.ts';
import { startGateway, type RunningGateway } from './helpers.ts';

const environment = useTestEnvironment();
let gateway: RunningGateway;
let admin: AdminFixture;
/** Calls from an IPv6 client (through one trusted proxy), so IPv4 bans never hit the test itself. */
let bans: BanCaller;
/** The same admin from an IPv4 client, for IPv6-wide bans. */
let bansFromV4: BanCaller;

beforeAll(async () => {
  gateway = await startGateway(environment, { RATE_LIMITS_ENABLED: 'false', TRUSTED_PROXY_HOPS: '1' });
  admin = await createAdmin(gateway.pool, ['*']);
  bans = banCaller(gateway.url, admin.key, { 'X-Forwarded-For': '2001:db8:ffff::1' });
  bansFromV4 = banCaller(gateway.url, admin.key, { 'X-Forwarded-For': '198.18.0.1' });
});

afterAll(async () => {
  await gateway?.close();
});

async function matched(ip: string, caller = bans): Promise<string | null> {
  const answer = await caller('ip', 'check', { ip });
  expect(answer.status).toBe(200);
  return answer.body.banned ? answer.body.matched : null;
}

describe('IP bans: addresses', () => {
  it('treats IPv4-mapped IPv6 as IPv4 and removes however the address is written', async () => {
    expect((await bans('ip', 'add', { ip: '192.0.2.10' })).status).toBe(204);
    expect(await matched('192.0.2.10')).toBe('192.0.2.10');
    expect(await matched('::ffff:192.0.2.10')).toBe('192.0.2.10');
    expect(await matched('192.0.2.11')).toBeNull();
    expect((await bans('ip', 'remove', { ip: '::ffff:c000:20a' })).status).toBe(204);
    expect(await matched('192.0.2.10')).toBeNull();
  });

  it('stores IPv6 canonically: added as 2001:0db8::1, removed as 2001:db8:0:0::1', async () => {
    await bans('ip', 'add', { ip: '2001:0DB8::1', reason: 'written long' });
    expect(await matched('2001:db8:0:0:0:0:0:1')).toBe('2001:db8::1');
    const listed = await bans('ip', 'list', {});
    expect(listed.body.bans).toContainEqual(expect.objectContaining({ ip: '2001:db8::1', reason: 'written long' }));
    expect((await bans('ip', 'remove', { ip: '2001:db8:0:0::1' })).status).toBe(204);
    expect(await matched('2001:db8::1')).toBeNull();
    expect((await bans('ip', 'remove', { ip: '2001:db8::1' })).status).toBe(204);
  });

  it('treats /32 and /128 as the single address', async () => {
    await bans('ip', 'add', { ips: ['198.51.100.7/32', '2001:db8:7::7/128'] });
    expect(await matched('198.51.100.7')).toBe('198.51.100.7');
    expect(await matched('2001:db8:7::7')).toBe('2001:db8:7::7');
    expect(await matched('198.51.100.8')).toBeNull();
    await bans('ip', 'remove', { ips: ['198.51.100.7', '2001:db8:7:0::7'] });
    expect(await matched('198.51.100.7')).toBeNull();
    expect(await matched('2001:db8:7::7')).toBeNull();
  });

  it('refuses what does not parse strictly, naming each element', async () => {
    const answer = await bans('ip', 'add', {
      ips: [
        '1.2.3',
        '999.1.1.1',
        '10.0.0.1/33',
        'beef',
        '01.2.3.4',
        'fe80::1%eth0',
        '2001:db8::/129',
        `${'1:'.repeat(40)}1`,
        '10.0.0.1',
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((error: { path: string }) => error.path)).toEqual([
      'ips.0',
      'ips.1',
      'ips.2',
      'ips.3',
      'ips.4',
      'ips.5',
      'ips.6',
      'ips.7',
    ]);
    expect(answer.body.errors[0].code).toBe('INVALID_IP_ADDRESS');
    expect(await matched('10.0.0.1')).toBeNull();
    expect((await bans('ip', 'check', { ip: '300.0.0.1' })).status).toBe(400);
    expect((await bans('ip', 'check', {})).body.errors).toEqual([expect.objectContaining({ path: 'ip' })]);
  });
});

describe('IP bans: ranges', () => {
  it('answers with the narrowest covering entry of overlapping ranges, and the next one when it goes', async () => {
    await bans('ip', 'add', { ip: '10.0.0.0/8', reason: 'wide' });
    await bans('ip', 'add', { ips: ['10.1.0.0/16', '10.1.2.3'], reason: 'narrow' });
    expect(await matched('10.1.2.3')).toBe('10.1.2.3');
    const check = await bans('ip', 'check', { ip: '10.1.9.9' });
    expect(check.body).toMatchObject({ banned: true, matched: '10.1.0.0/16', reason: 'narrow', expires_at: null });
    expect(await matched('10.2.0.1')).toBe('10.0.0.0/8');

    await bans('ip', 'remove', { ip: '10.1.0.0/16' });
    expect(await matched('10.1.9.9')).toBe('10.0.0.0/8');
    expect(await matched('10.1.2.3')).toBe('10.1.2.3');
    await bans('ip', 'remove', { ips: ['10.0.0.0/8', '10.1.2.3'] });
    expect(await matched('10.1.2.3')).toBeNull();
  });

  it('answers for a CIDR whether the whole range is covered', async () => {
    await bans('ip', 'add', { ip: '172.16.0.0/12' });
    expect(await matched('172.16.0.0/12')).toBe('172.16.0.0/12');
    expect(await matched('172.20.1.0/24')).toBe('172.16.0.0/12');
    expect(await matched('172.16.0.0/11')).toBeNull();
    expect(await matched('172.0.0.0/8')).toBeNull();
    // Host bits are cleared on the way in.
    await bans('ip', 'add', { ip: '10.200.3.4/16' });
    expect(await matched('10.200.255.255')).toBe('10.200.0.0/16');
    await bans('ip', 'remove', { ips: ['172.16.0.0/12', '10.200.0.0/16'] });
    expect(await matched('172.20.1.0/24')).toBeNull();
  });

  it('bans a whole family with /0 (forced), and only that family', async () => {
    try {
      expect((await bans('ip', 'add', { ip: '0.0.0.0/0', force: true })).status).toBe(204);
      expect(await matched('8.8.8.8')).toBe('0.0.0.0/0');
      expect(await matched('0.0.0.0/0')).toBe('0.0.0.0/0');
      expect(await matched('2001:db8::8')).toBeNull();
    } finally {
      await bans('ip', 'remove', { ip: '0.0.0.0/0' });
    }
    try {
      expect((await bansFromV4('ip', 'add', { ip: '::/0', force: true })).status).toBe(204);
      expect(await matched('2001:db8::8', bansFromV4)).toBe('::/0');
      expect(await matched('::ffff:8.8.8.8', bansFromV4)).toBeNull();
    } finally {
      await bansFromV4('ip', 'remove', { ip: '::/0' });
    }
    expect(await matched('8.8.8.8')).toBeNull();
  });

  it('stops applying an expired ban at once, in checks and in enforcement', async () => {
    const client = { 'X-Forwarded-For': '203.0.113.50' };
    await bans('ip', 'add', { ip: '203.0.113.0/24', expires_in_seconds: 1 });
    const live = await bans('ip', 'check', { ip: '203.0.113.50' });
    expect(live.body).toMatchObject({ banned: true, matched: '203.0.113.0/24' });
    expect((await fetch(`${gateway.url}/v1/.well-known/service`, { headers: client })).status).toBe(403);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(live.body.expires_at) - Date.now()) + 50),
    );
    expect(await matched('203.0.113.50')).toBeNull();
    expect((await fetch(`${gateway.url}/v1/.well-known/service`, { headers: client })).status).toBe(200);
  });
});

describe('IP bans: audit and retroactive revocation', () => {
  async function seedTokens(addresses: Array<string | null>): Promise<Buffer[]> {
    const users = addresses.map(() => ({ id: fixtureIds.next(), username: 'seeded' }));
    await insertUsers(gateway.pool, users);
    const hashes = addresses.map(() => randomBytes(32));
    await insertUserTokens(
      gateway.pool,
      hashes.map((tokenHash, i) => ({ tokenHash, userId: users[i]!.id, kind: 'user' as const })),
    );
    for (const [i, address] of addresses.entries())
      if (address) await recordUserTokenSeen(gateway.pool, hashes[i]!, address);
    return hashes;
  }

  async function remaining(hashes: Buffer[]): Promise<number[]> {
    const { rows } = await gateway.pool.query<{ token_hash: Buffer }>(
      'SELECT token_hash FROM user_tokens WHERE token_hash = ANY($1)',
      [hashes],
    );
    return hashes.flatMap((hash, i) => (rows.some((row) => row.token_hash.equals(hash)) ? [i] : []));
  }

  async function audit(ip: string): Promise<AuditRow[]> {
    const { rows } = await gateway.pool.query<AuditRow>(
      `SELECT admin_user_id::text, target_type, target_id, action, audit_log_reason, metadata FROM audit_logs
       WHERE target_type = 'ip' AND target_id = $1 ORDER BY id`,
      [ip],
    );
    return rows;
  }

  it('revokes tokens last seen inside the banned ranges, keeps the others, and records the counts', async () => {
    const hashes = await seedTokens([
      '100.64.1.5',
      '100.64.200.9',
      '100.65.0.1',
      '2001:db8:aa::1',
      '2001:db8:ab::1',
      null,
    ]);
    const answer = await bans(
      'ip',
      'add',
      { ips: ['100.64.0.0/16', '2001:db8:aa::/48', '100.64.1.5'], retroactive: true },
      { 'X-Audit-Log-Reason': 'abuse' },
    );
    expect(answer.status).toBe(204);
    expect(await remaining(hashes)).toEqual([2, 4, 5]);
    expect(await audit('100.64.0.0/16')).toEqual([
      {
        admin_user_id: admin.adminId,
        target_type: 'ip',
        target_id: '100.64.0.0/16',
        action: 'ban_ip',
        audit_log_reason: 'abuse',
        metadata: { ip: '100.64.0.0/16', retroactive: 'true', revoked_tokens: '2' },
      },
    ]);
    expect((await audit('2001:db8:aa::/48'))[0]!.metadata).toEqual({
      ip: '2001:db8:aa::/48',
      retroactive: 'true',
      revoked_tokens: '1',
    });
    // Overlapping entries each count the tokens inside them.
    expect((await audit('100.64.1.5'))[0]!.metadata.revoked_tokens).toBe('1');
  });

  it('leaves tokens alone without retroactive, and audits removal per value', async () => {
    const hashes = await seedTokens(['100.72.0.1']);
    await bans('ip', 'add', { ip: '100.72.0.0/16' });
    expect(await remaining(hashes)).toEqual([0]);
    expect((await audit('100.72.0.0/16'))[0]!.metadata).toEqual({ ip: '100.72.0.0/16' });
    await bans('ip', 'remove', { ip: '100.72.0.1/16' });
    expect((await audit('100.72.0.0/16')).map((row) => row.action)).toEqual(['ban_ip', 'unban_ip']);
  });
});
