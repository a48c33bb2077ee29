import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import type { RedisClient } from '@switchboard/redis';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { adminCall, createAdmin, fixtureIds } from './admin-helpers.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
// A second replica on the same PostgreSQL and Redis.
const other = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });

const LIST = { method: 'GET', path: '/v1/admin/api-keys' } as const;
const AUDIT = { method: 'POST', path: '/v1/admin/audit-logs', body: {} } as const;

function withAuthorization(base: string, authorization: string) {
  return adminCall(base, { ...LIST, headers: { authorization } });
}

async function lastUsedAt(keyId: string): Promise<Date | null> {
  const { rows } = await gateway.pool.query<{ last_used_at: Date | null }>(
    'SELECT last_used_at FROM admin_api_keys WHERE id = $1',
    [keyId],
  );
  return rows[0]!.last_used_at;
}

function markerKey(keyId: string): string {
  return `${gateway.config.REDIS_PREFIX}:admin-key-used:${keyId}`;
}

/** Counts the key-use markers a replica's Redis client writes (its real commands, observed). */
function countMarkerWrites(client: RedisClient): { count: number; stop(): void } {
  // The gateway tests run on one server: its client is a single connection.
  const redis = client as Redis;
  const send = redis.sendCommand;
  const asks = {
    count: 0,
    stop: () => {
      redis.sendCommand = send;
    },
  };
  redis.sendCommand = ((command, stream) => {
    if (command.name === 'set' && String(command.args[0]).includes(':admin-key-used:')) asks.count += 1;
    return send.call(redis, command, stream);
  }) as Redis['sendCommand'];
  return asks;
}

/** Waits for the column to be written (after the response), and returns it. */
async function writtenLastUsedAt(keyId: string): Promise<Date> {
  return waitFor(async () => (await lastUsedAt(keyId)) ?? undefined, 10_000);
}

describe('the Authorization header', () => {
  it('accepts exactly `Admin <key>` and nothing else', async () => {
    const { key } = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    expect((await withAuthorization(gateway.url, `Admin ${key}`)).status).toBe(200);
    for (const header of [
      `admin ${key}`,
      `ADMIN ${key}`,
      `Bearer ${key}`,
      `Bot ${key}`,
      key,
      `Admin  ${key}`,
      `Admin ${key} x`,
      'Admin ',
    ]) {
      const answer = await withAuthorization(gateway.url, header);
      expect(answer.status, header).toBe(401);
      expect(answer.body.code).toBe('UNAUTHORIZED');
    }
  });

  it('refuses malformed and forged keys', async () => {
    const { key, keyId } = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    const secret = key.slice(-32);
    const forged = [
      `fa_${keyId}_${secret.slice(0, 31)}`,
      `fa_${keyId}_${secret}x`,
      `fa_${keyId}_${secret.slice(0, 31)}${secret.at(-1) === 'A' ? 'B' : 'A'}`,
      `fa_${fixtureIds.next()}_${secret}`,
      `fb_${keyId}_${secret}`,
      `fa_0${keyId}_${secret}`,
      `fa_99999999999999999999_${secret}`,
      'fa__',
    ];
    for (const candidate of forged)
      expect((await withAuthorization(gateway.url, `Admin ${candidate}`)).status, candidate).toBe(401);
  });
});

describe('concurrent requests', () => {
  it('answers each request for its own key when their keys are read together', async () => {
    const lister = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    const auditor = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView]);
    const revoked = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    await gateway.pool.query('DELETE FROM admin_api_keys WHERE id = $1', [revoked.keyId]);
    const forged = `fa_${fixtureIds.next()}_${'x'.repeat(32)}`;
    const wrongSecret = `${lister.key.slice(0, -1)}${lister.key.endsWith('a') ? 'b' : 'a'}`;
    const cases = [
      ...Array.from({ length: 10 }, () => [lister.key, 200] as const),
      ...Array.from({ length: 10 }, () => [auditor.key, 403] as const),
      ...Array.from({ length: 5 }, () => [revoked.key, 401] as const),
      ...Array.from({ length: 5 }, () => [forged, 401] as const),
      ...Array.from({ length: 5 }, () => [wrongSecret, 401] as const),
    ];
    const answers = await Promise.all(cases.map(([key]) => withAuthorization(gateway.url, `Admin ${key}`)));
    expect(answers.map((answer) => answer.status)).toEqual(cases.map(([, status]) => status));
    expect(answers[10]!.body.code).toBe('MISSING_ACL');
  });
});

describe('ACL changes and revocation', () => {
  // ACLs change in SQL (no route changes them): each replica applies the change once it hears
  // the commit (change-feed.ts), within milliseconds and never later than its lease.
  it('takes an ACL the owner loses away from its keys on every replica', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView, ACL.apiKeyManage]);
    expect((await adminCall(gateway.url, { ...AUDIT, key: admin.key })).status).toBe(200);
    await gateway.pool.query('UPDATE admin_users SET acls = $2 WHERE id = $1', [
      admin.adminId,
      [ACL.authenticate, ACL.apiKeyManage],
    ]);
    await expect
      .poll(async () => (await adminCall(other.url, { ...AUDIT, key: admin.key })).status, { timeout: 2_000 })
      .toBe(403);
    const answer = await adminCall(other.url, { ...AUDIT, key: admin.key });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'MISSING_ACL', acl: ACL.auditLogView });
    expect((await adminCall(gateway.url, { ...LIST, key: admin.key })).status).toBe(200);
  });

  it('answers MISSING_PERMISSIONS once the owner loses admin:authenticate, even for a `*` key', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView], { keyAcls: ['*'] });
    expect((await adminCall(gateway.url, { ...AUDIT, key: admin.key })).status).toBe(200);
    await gateway.pool.query('UPDATE admin_users SET acls = $2 WHERE id = $1', [admin.adminId, [ACL.auditLogView]]);
    await expect
      .poll(async () => (await adminCall(gateway.url, { ...AUDIT, key: admin.key })).status, { timeout: 2_000 })
      .toBe(403);
    const answer = await adminCall(gateway.url, { ...AUDIT, key: admin.key });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('MISSING_PERMISSIONS');
  });

  it('needs the route ACL on the key as well as on the owner', async () => {
    const admin = await createAdmin(gateway.pool, ['*'], { keyAcls: [ACL.apiKeyManage] });
    expect((await adminCall(gateway.url, { ...LIST, key: admin.key })).status).toBe(200);
    const answer = await adminCall(gateway.url, { ...AUDIT, key: admin.key });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'MISSING_ACL', message: `Missing ACL: ${ACL.auditLogView}.` });
  });

  it('revokes a key on every replica for the very next request', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    expect((await adminCall(other.url, { ...LIST, key: admin.key })).status).toBe(200);
    const deleted = await adminCall(gateway.url, {
      method: 'DELETE',
      path: `/v1/admin/api-keys/${admin.keyId}`,
      key: admin.key,
    });
    expect(deleted).toMatchObject({ status: 200, body: { success: true } });
    expect((await adminCall(other.url, { ...LIST, key: admin.key })).status).toBe(401);
    expect((await adminCall(gateway.url, { ...LIST, key: admin.key })).status).toBe(401);
  });
});

describe('last_used_at', () => {
  it('is written at most once a minute per key, across replicas, after the response', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    expect(await lastUsedAt(admin.keyId)).toBeNull();
    expect((await adminCall(gateway.url, { ...LIST, key: admin.key })).status).toBe(200);
    const first = await writtenLastUsedAt(admin.keyId);
    const listed = await adminCall(gateway.url, { ...LIST, key: admin.key });
    expect(listed.body.find((key: { key_id: string }) => key.key_id === admin.keyId).last_used_at).toBe(
      first.toISOString(),
    );

    // Clear the column: were a second use to reach the database, it would write it again.
    await gateway.pool.query('UPDATE admin_api_keys SET last_used_at = NULL WHERE id = $1', [admin.keyId]);
    expect((await adminCall(other.url, { ...LIST, key: admin.key })).status).toBe(200);
    expect((await adminCall(gateway.url, { ...LIST, key: admin.key })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await lastUsedAt(admin.keyId)).toBeNull();

    // The marker stands for the minute, whichever replica asks.
    const ttl = await gateway.redis.pttl(markerKey(admin.keyId));
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('costs a replica that lost the minute to another one Redis command, until that marker lapses', async () => {
    const MARKER_LEFT_MS = 3_000;
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    // Another replica recorded a use almost a minute ago: its marker stands a little longer,
    // long enough for five admin calls on a loaded machine (a lapse during them is a second
    // ask), short enough to wait out below.
    await gateway.redis.set(markerKey(admin.keyId), '1', 'PX', MARKER_LEFT_MS);
    const asks = countMarkerWrites(other.redis);
    try {
      for (let use = 0; use < 5; use++)
        expect((await adminCall(other.url, { ...LIST, key: admin.key })).status).toBe(200);
      await expect.poll(() => asks.count).toBe(1);
      expect(await lastUsedAt(admin.keyId)).toBeNull();

      // The marker lapsed: the next use asks again, wins the minute and is recorded.
      await waitFor(
        async () => ((await gateway.redis.exists(markerKey(admin.keyId))) === 0 ? true : undefined),
        MARKER_LEFT_MS + 5_000,
      );
      expect((await adminCall(other.url, { ...LIST, key: admin.key })).status).toBe(200);
      await writtenLastUsedAt(admin.keyId);
      expect(asks.count).toBe(2);
    } finally {
      asks.stop();
    }
  });

  it('asks Redis once for a burst of uses that arrive before the answer', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    const asks = countMarkerWrites(other.redis);
    try {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => adminCall(other.url, { ...LIST, key: admin.key })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      await writtenLastUsedAt(admin.keyId);
      expect(asks.count).toBe(1);
    } finally {
      asks.stop();
    }
  });
});
