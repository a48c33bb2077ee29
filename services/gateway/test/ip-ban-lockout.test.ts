import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { spawnNode } from '@switchboard/testkit/processes';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { adminCall, createAdmin, type AdminFixture } from './admin-helpers.ts';
import { banCaller, type AuditRow, type BanCaller } from './bans-helpers.ts';
import { startGateway, type RunningGateway } from './helpers.ts';

const environment = useTestEnvironment();
let gateway: RunningGateway;
let admin: AdminFixture;
let bans: BanCaller;

const CLIENT = '198.18.7.1';

beforeAll(async () => {
  gateway = await startGateway(environment, { RATE_LIMITS_ENABLED: 'false', TRUSTED_PROXY_HOPS: '1' });
  admin = await createAdmin(gateway.pool, ['*']);
  bans = banCaller(gateway.url, admin.key, { 'X-Forwarded-For': CLIENT });
});

afterAll(async () => {
  await gateway?.close();
});

async function auditOf(network: string): Promise<AuditRow[]> {
  const { rows } = await gateway.pool.query<AuditRow>(
    `SELECT admin_user_id::text, target_type, target_id, action, audit_log_reason, metadata FROM audit_logs WHERE target_id = $1 ORDER BY id`,
    [network],
  );
  return rows;
}

describe('the widest IP ban range', () => {
  it('refuses ranges wider than /8 (IPv4) and /32 (IPv6) without force, naming each', async () => {
    const answer = await bans('ip', 'add', {
      ip: '0.0.0.0/0',
      ips: ['203.0.113.0/24', '::/0', '10.0.0.0/7', '::ffff:0.0.0.0/96', '2001:db8::/31'],
    });
    expect([answer.status, answer.body.code]).toEqual([400, 'INVALID_FORM_BODY']);
    expect(answer.body.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([
      ['ip', 'RANGE_TOO_WIDE'],
      ['ips.1', 'RANGE_TOO_WIDE'],
      ['ips.2', 'RANGE_TOO_WIDE'],
      ['ips.3', 'RANGE_TOO_WIDE'],
      ['ips.4', 'RANGE_TOO_WIDE'],
    ]);
    const { rows } = await gateway.pool.query('SELECT count(*)::int AS n FROM ip_bans');
    expect(rows[0].n).toBe(0);
    expect((await bans('ip', 'add', { ips: ['10.0.0.0/8', '2001:db8::/32'] })).status).toBe(204);
    expect((await bans('ip', 'remove', { ips: ['10.0.0.0/8', '2001:db8::/32'] })).status).toBe(204);
  });

  it('takes the floor from IP_BAN_MIN_PREFIX_V4 / _V6', async () => {
    const strict = await startGateway(environment, {
      RATE_LIMITS_ENABLED: 'false',
      IP_BAN_MIN_PREFIX_V4: '16',
      IP_BAN_MIN_PREFIX_V6: '48',
    });
    try {
      const strictBans = banCaller(strict.url, admin.key);
      expect((await strictBans('ip', 'add', { ip: '172.16.0.0/12' })).body.errors[0].code).toBe('RANGE_TOO_WIDE');
      expect((await strictBans('ip', 'add', { ip: '2001:db8::/47' })).body.errors[0].code).toBe('RANGE_TOO_WIDE');
      expect((await strictBans('ip', 'add', { ip: '172.16.0.0/16' })).status).toBe(204);
      expect((await strictBans('ip', 'remove', { ip: '172.16.0.0/16' })).status).toBe(204);
    } finally {
      await strict.close();
    }
  });
});

describe('an admin locked out by a forced ban of everyone', () => {
  it('accepts the ban only with force (audited), then still lets a ban:ip:remove key lift it', async () => {
    const added = await bans(
      'ip',
      'add',
      { ips: ['0.0.0.0/0', '::/0'], force: true },
      { 'X-Audit-Log-Reason': 'maintenance' },
    );
    expect(added.status).toBe(204);
    expect((await auditOf('0.0.0.0/0'))[0]?.metadata).toEqual({ ip: '0.0.0.0/0', forced: 'true' });

    // Every route is now closed to every client, admins included ...
    for (const path of ['/v1/.well-known/service', '/v1/openapi.json']) {
      expect((await fetch(`${gateway.url}${path}`, { headers: { 'X-Forwarded-For': CLIENT } })).status).toBe(403);
    }
    const listed = await bans('ip', 'list', {});
    expect([listed.status, listed.body.code]).toEqual([403, 'IP_BANNED']);
    // ... and the removal route to anyone without a valid key holding ban:ip:remove.
    const narrow = await createAdmin(gateway.pool, ['*'], { keyAcls: [ACL.authenticate, ACL.banIpAdd] });
    const noAuthenticate = await createAdmin(gateway.pool, [ACL.banIpRemove]);
    const remove = (key: string | undefined) =>
      adminCall(gateway.url, {
        method: 'POST',
        path: '/v1/admin/bans/ip/remove',
        key,
        body: { ips: ['0.0.0.0/0', '::/0'] },
        headers: { 'X-Forwarded-For': CLIENT },
      });
    for (const key of [undefined, 'fa_1_garbage', narrow.key, noAuthenticate.key]) {
      const refused = await remove(key);
      expect([refused.status, refused.body.code], String(key)).toEqual([403, 'IP_BANNED']);
    }
    // Only the removal route: the same key elsewhere is still banned.
    const check = await bans('ip', 'check', { ip: CLIENT });
    expect([check.status, check.body.code]).toEqual([403, 'IP_BANNED']);

    expect((await remove(admin.key)).status).toBe(204);
    expect((await auditOf('0.0.0.0/0')).map((row) => row.action)).toEqual(['ban_ip', 'unban_ip']);
    expect(
      (await fetch(`${gateway.url}/v1/.well-known/service`, { headers: { 'X-Forwarded-For': CLIENT } })).status,
    ).toBe(200);
    expect((await bans('ip', 'list', {})).status).toBe(200);
  });
});

describe('an operator locked out of every admin key', () => {
  it('makes a key with the CLI on the database, then lifts the ban through the API from the banned address', async () => {
    const quick = await startGateway(environment, {
      RATE_LIMITS_ENABLED: 'false',
      TRUSTED_PROXY_HOPS: '1',
      IP_BANS_FULL_RELOAD_MS: '1000',
    });
    try {
      expect(
        (
          await banCaller(quick.url, admin.key, { 'X-Forwarded-For': CLIENT })('ip', 'add', {
            ip: '0.0.0.0/0',
            force: true,
          })
        ).status,
      ).toBe(204);
      const discovery = () => fetch(`${quick.url}/v1/.well-known/service`, { headers: { 'X-Forwarded-For': CLIENT } });
      expect((await discovery()).status).toBe(403);
      const cli = (args: string[], env: Record<string, string>) =>
        spawnNode(fileURLToPath(new URL('../../../packages/cli/src/main.ts', import.meta.url)), { env, args });
      const created = cli(
        [
          'admin',
          'create',
          '--name',
          'locked-out',
          '--acl',
          ACL.authenticate,
          '--acl',
          ACL.banIpRemove,
          '--acl',
          ACL.banIpCheck,
          '--json',
        ],
        environment.processEnv(),
      );
      expect((await created.exit).code, created.stderr()).toBe(0);
      // The CLI calls from 127.0.0.1, inside 0.0.0.0/0: only the removal route lets its key through.
      const removal = cli(['bans', 'ip', 'remove', '0.0.0.0/0', '--json', '--reason', 'locked out'], {
        SWITCHBOARD_URL: quick.url,
        SWITCHBOARD_ADMIN_KEY: JSON.parse(created.stdout()).key,
      });
      const { code } = await removal.exit;
      expect(code, removal.stderr()).toBe(0);
      expect(JSON.parse(removal.stdout())).toEqual({ removed: ['0.0.0.0/0'], still_covering: [] });
      await waitFor(async () => (await discovery()).status === 200, 15_000);
    } finally {
      await quick.close();
    }
  });
});
