import { afterEach, describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminCall, createAdmin } from './admin-helpers.ts';
import { credentialLookups, untilAnsweredFromMemory, useGateway, type RunningGateway } from './helpers.ts';

const environment = useTestEnvironment();
// A long lease: what these tests see from memory must not lapse on a busy machine meanwhile.
const LEASE_MS = 5_000;
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', CREDENTIAL_CACHE_LEASE_MS: String(LEASE_MS) });
const other = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', CREDENTIAL_CACHE_LEASE_MS: String(LEASE_MS) });

const AUDIT = { method: 'POST', path: '/v1/admin/audit-logs', body: {} } as const;

const COUNTER = 'admin_key_lookups_total';
const lookups = (target: RunningGateway) => credentialLookups(target, COUNTER);

/** Calls until an answer came from memory. */
const cached = (target: RunningGateway, key: string) =>
  untilAnsweredFromMemory(target, COUNTER, async () => {
    expect((await adminCall(target.url, { ...AUDIT, key })).status).toBe(200);
  });

/** The triggers of migration 0009 off: changes made meanwhile notify no gateway. */
async function silenceChanges(silent: boolean): Promise<void> {
  const action = silent ? 'DISABLE' : 'ENABLE';
  await gateway.pool.query(`ALTER TABLE admin_users ${action} TRIGGER admin_users_auth_changed`);
}

afterEach(() => silenceChanges(false));

/** Deletes the admin's key through the API with that key; the answer, and how long it took (ms). */
async function timedDeletion(admin: { keyId: string; key: string }) {
  const started = performance.now();
  const answer = await adminCall(gateway.url, {
    method: 'DELETE',
    path: `/v1/admin/api-keys/${admin.keyId}`,
    key: admin.key,
  });
  return { answer, elapsedMs: performance.now() - started };
}

describe('admin keys from memory', () => {
  it('answers a key it read while its change feed holds the lease without asking the database', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView]);
    await cached(gateway, admin.key);
    const before = await lookups(gateway);
    for (let i = 0; i < 5; i += 1)
      expect((await adminCall(gateway.url, { ...AUDIT, key: admin.key })).status).toBe(200);
    const after = await lookups(gateway);
    expect(after.hit - before.hit).toBe(5);
    expect(after.read).toBe(before.read);
  });

  it('applies an ACL change made in SQL on every replica as soon as it hears the commit', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView]);
    await cached(gateway, admin.key);
    await cached(other, admin.key);
    await gateway.pool.query('UPDATE admin_users SET acls = $2 WHERE id = $1', [admin.adminId, [ACL.authenticate]]);
    for (const target of [gateway, other]) {
      await expect
        .poll(async () => (await adminCall(target.url, { ...AUDIT, key: admin.key })).status, { timeout: 2_000 })
        .toBe(403);
    }
  });

  it('stops answering from memory when its feed connection is lost, so nothing missed meanwhile is served', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView]);
    await cached(gateway, admin.key);
    // A change no gateway hears: from memory the key still holds the ACL it lost.
    await silenceChanges(true);
    await gateway.pool.query('UPDATE admin_users SET acls = $2 WHERE id = $1', [admin.adminId, [ACL.authenticate]]);
    expect((await adminCall(gateway.url, { ...AUDIT, key: admin.key })).status).toBe(200);
    // Cut every feed of this database: each drops what it cached, so the change shows at once.
    const { rowCount } = await gateway.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'gateway-credential-feed' AND datname = current_database()`,
    );
    expect(rowCount).toBe(2);
    await expect
      .poll(async () => (await adminCall(gateway.url, { ...AUDIT, key: admin.key })).status, { timeout: 2_000 })
      .toBe(403);
    // Back within a reconnect, and answering from memory again.
    await silenceChanges(false);
    await expect.poll(async () => (await lookups(gateway)).live, { timeout: 5_000 }).toBe(1);
  });

  it('deletes a key through the API once every replica acknowledged, and no replica accepts it after', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage, ACL.auditLogView]);
    await cached(gateway, admin.key);
    await cached(other, admin.key);
    // Feeds live for a whole lease know every replica that may answer from memory, so the
    // deletion waits for their acknowledgements, not for the lease (a younger feed must).
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
    await cached(other, admin.key);
    const { answer: deleted, elapsedMs } = await timedDeletion(admin);
    expect(elapsedMs).toBeLessThan(LEASE_MS);
    expect(deleted).toMatchObject({ status: 200, body: { success: true } });
    expect((await adminCall(other.url, { ...AUDIT, key: admin.key })).status).toBe(401);
    expect((await adminCall(gateway.url, { ...AUDIT, key: admin.key })).status).toBe(401);
  });

  it('waits out the lease of a replica that beats but never acknowledges, and answers within it', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage, ACL.auditLogView]);
    // A replica stalled after its last beats: it states a lease longer than ours and never
    // acknowledges, so the deletion cannot know it dropped the key before that lease ran out.
    const silentLeaseMs = LEASE_MS + 1_500;
    const beat = () =>
      gateway.pool.query('SELECT pg_notify($1, $2)', ['switchboard_admin_auth', `b silent-replica 1 ${silentLeaseMs}`]);
    await beat();
    const beating = setInterval(() => void beat(), 250);
    try {
      await cached(other, admin.key);
      const { answer: deleted, elapsedMs } = await timedDeletion(admin);
      expect(deleted.status).toBe(200);
      expect(elapsedMs).toBeGreaterThanOrEqual(silentLeaseMs);
      expect(elapsedMs).toBeLessThan(silentLeaseMs + 5_000);
      expect((await adminCall(other.url, { method: 'GET', path: '/v1/admin/api-keys', key: admin.key })).status).toBe(
        401,
      );
    } finally {
      clearInterval(beating);
    }
  });
});
