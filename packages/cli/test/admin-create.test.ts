import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { openWebhookSecret, secretKeyId, secretKeyring } from '@switchboard/db';
import { closeRedis, createRedis } from '@switchboard/redis';
import { snowflakeWorkerId, workerIdLeaseKey } from '@switchboard/snowflake';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLine, runCli } from './run-cli.ts';

const environment = useTestEnvironment();
const db = useTestPool(environment);
let redis: Redis;
beforeAll(() => {
  redis = createRedis(environment.redisUrl, { role: 'producer', name: 'cli-test' });
});
afterAll(async () => {
  await closeRedis(redis);
});

describe('switchboard migrate', () => {
  it('reports nothing to apply on a migrated database', async () => {
    const run = await runCli(['migrate', '--json'], environment.processEnv());
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ applied: [] });
  });

  it('seals webhook secrets stored as given under the configured key, once (docs/decisions.md#secrets-encrypted-at-rest)', async () => {
    const hook = await createWebhookFixture(db(), { secret: 'from before the migration' });
    const key = randomBytes(32);
    const env = environment.processEnv({ SECRETS_ENCRYPTION_KEY: key.toString('base64') });
    const first = JSON.parse((await runCli(['migrate', '--json'], env)).stdout);
    expect(first).toMatchObject({ applied: [], write_key_id: secretKeyId(key) });
    expect(first.secrets_resealed).toBeGreaterThanOrEqual(1);
    const { rows } = await db().query('SELECT secret, secret_key_id FROM webhooks WHERE id = $1', [hook.webhookId]);
    expect(rows[0].secret_key_id).toBe(secretKeyId(key));
    expect(rows[0].secret).not.toContain('before the migration');
    expect(
      openWebhookSecret(secretKeyring([key]), hook.webhookId, { secret: rows[0].secret, keyId: rows[0].secret_key_id }),
    ).toBe('from before the migration');
    const again = JSON.parse((await runCli(['migrate', '--json'], env)).stdout);
    expect(again).toMatchObject({ applied: [], secrets_resealed: 0 });
  });
});

describe('switchboard admin create', () => {
  it('creates the admin and a key, prints the key once and stores only its SHA-256', async () => {
    const run = await runCli(
      [
        'admin',
        'create',
        '--name',
        'ops',
        '--acl',
        '*',
        '--acl',
        'audit_log:view',
        '--expires-in-days',
        '30',
        '--json',
      ],
      environment.processEnv(),
    );
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ name: 'ops', acls: ['*', 'audit_log:view'], admin_created: true });
    expect(out.key).toMatch(new RegExp(`^fa_${out.key_id}_[A-Za-z0-9]{32}$`));
    const days = (Date.parse(out.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const { rows: admins } = await db().query('SELECT name, acls FROM admin_users WHERE id = $1', [out.admin_user_id]);
    expect(admins).toEqual([{ name: 'ops', acls: ['*', 'audit_log:view'] }]);
    const { rows: keys } = await db().query<{ key_hash: Buffer; admin_user_id: string; acls: string[] }>(
      'SELECT key_hash, admin_user_id, acls FROM admin_api_keys WHERE id = $1',
      [out.key_id],
    );
    expect(keys[0]!.admin_user_id).toBe(out.admin_user_id);
    expect(keys[0]!.key_hash.equals(createHash('sha256').update(out.key).digest())).toBe(true);
    expect(keys[0]!.acls).toEqual(['*', 'audit_log:view']);
  });

  it('warns, on stderr, when the key could authenticate nowhere: no admin:authenticate and no *', async () => {
    const lacking = await runCli(
      ['admin', 'create', '--name', 'no-entry', '--acl', 'ban:ip:check', '--json'],
      environment.processEnv(),
    );
    expect(lacking.code, lacking.stderr).toBe(0);
    expect(lacking.stderr).toMatch(
      /^warning: the ACLs lack admin:authenticate \(or \*\): this key is refused \(403\)/m,
    );
    expect(JSON.parse(lacking.stdout)).toMatchObject({ acls: ['ban:ip:check'] });
    for (const acls of [['admin:authenticate', 'ban:ip:check'], ['*']]) {
      const fine = await runCli(
        ['admin', 'create', '--name', `entry-${acls.length}`, ...acls.flatMap((one) => ['--acl', one])],
        environment.processEnv(),
      );
      expect(fine.stderr).not.toMatch(/warning/);
    }
  });

  it('reuses an admin by name, adding the new ACLs, with a new key', async () => {
    const first = JSON.parse(
      (
        await runCli(
          ['admin', 'create', '--name', 'support', '--acl', 'ban:ip:check', '--json'],
          environment.processEnv(),
        )
      ).stdout,
    );
    const run = await runCli(
      ['admin', 'create', '--name', 'support', '--acl', 'ban:email:check', '--json'],
      environment.processEnv(),
    );
    const second = JSON.parse(run.stdout);
    expect(second.admin_user_id).toBe(first.admin_user_id);
    expect(second.admin_created).toBe(false);
    expect(second.admin_acls).toEqual(['ban:email:check', 'ban:ip:check']);
    expect(second.acls).toEqual(['ban:email:check']);
    expect(second.key_id).not.toBe(first.key_id);
    expect(second.expires_at).toBeNull();
  });

  it('answers bad options with one JSON line on stderr, nothing on stdout and exit 2', async () => {
    const cases = [
      ['admin', 'create', '--name', 'x'],
      ['admin', 'create', '--name', 'x', '--acl', '*', '--expires-in-days', '366'],
      ['admin', 'create', '--name', 'x', '--acl', '*', '--bogus'],
      ['admin', 'delete'],
    ];
    const runs = await Promise.all(cases.map((args) => runCli(args, environment.processEnv())));
    for (const [i, run] of runs.entries()) {
      expect(run.code, cases[i]!.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(errorLine(run).error).toMatch(/^(INVALID_ARGUMENTS|UNKNOWN_COMMAND)$/);
    }
  });

  it('answers a bad configuration with exit 78 and names the variable', async () => {
    const run = await runCli(['migrate', '--json'], environment.processEnv({ DATABASE_URL: 'mysql://nope' }));
    expect(run.code).toBe(78);
    const line = errorLine(run);
    expect(line.error).toBe('INVALID_CONFIG');
    expect(JSON.stringify(line.details)).toContain('DATABASE_URL');
  });

  it('makes its ids under a leased worker id: SNOWFLAKE_WORKER_ID when free, another when not, released at exit', async () => {
    const free = JSON.parse(
      (
        await runCli(
          ['admin', 'create', '--name', 'lease-a', '--acl', '*', '--json'],
          environment.processEnv({ SNOWFLAKE_WORKER_ID: '600' }),
        )
      ).stdout,
    );
    expect(snowflakeWorkerId(free.admin_user_id)).toBe(600);
    expect(await redis.exists(workerIdLeaseKey(environment.redisPrefix, 600))).toBe(0);

    await redis.set(workerIdLeaseKey(environment.redisPrefix, 600), 'a-running-gateway', 'PX', 60_000);
    try {
      const run = await runCli(
        ['admin', 'create', '--name', 'lease-b', '--acl', '*', '--json'],
        environment.processEnv({ SNOWFLAKE_WORKER_ID: '600' }),
      );
      expect(run.code, run.stderr).toBe(0);
      const taken = JSON.parse(run.stdout);
      expect(snowflakeWorkerId(taken.admin_user_id)).not.toBe(600);
      expect(snowflakeWorkerId(taken.key_id)).toBe(snowflakeWorkerId(taken.admin_user_id));
      expect(await redis.get(workerIdLeaseKey(environment.redisPrefix, 600))).toBe('a-running-gateway');
    } finally {
      await redis.del(workerIdLeaseKey(environment.redisPrefix, 600));
    }
  });

  it('needs REDIS_URL to make ids, and says so with exit 78', async () => {
    const { REDIS_URL: _unused, ...withoutRedis } = environment.processEnv();
    // No dev stack file to fall back on either.
    const run = await runCli(['admin', 'create', '--name', 'x', '--acl', '*', '--json'], {
      ...withoutRedis,
      DEVSTACK_DATA_DIR: '/nonexistent/devstack',
    });
    expect(run.code).toBe(78);
    const line = errorLine(run);
    expect(line.error).toBe('INVALID_CONFIG');
    expect(JSON.stringify(line.details)).toContain('REDIS_URL');
  });
});
