import { describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminCall, createAdmin, insertKey, type AdminFixture } from './admin-helpers.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });

const MANAGE = [ACL.authenticate, ACL.apiKeyManage];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function create(key: string, body: unknown, headers: Record<string, string> = {}) {
  return adminCall(gateway.url, { method: 'POST', path: '/v1/admin/api-keys', key, body, headers });
}
function list(key: string) {
  return adminCall(gateway.url, { method: 'GET', path: '/v1/admin/api-keys', key });
}
function remove(key: string, keyId: string, headers: Record<string, string> = {}) {
  return adminCall(gateway.url, { method: 'DELETE', path: `/v1/admin/api-keys/${keyId}`, key, headers });
}

async function auditEntries(targetId: string) {
  const { rows } = await gateway.pool.query(
    `SELECT admin_user_id::text, target_type, action, audit_log_reason, metadata FROM audit_logs WHERE target_id = $1 ORDER BY id`,
    [targetId],
  );
  return rows;
}

describe('key lifecycle', () => {
  it('creates, uses, lists (without key material), deletes, and the key stops working', async () => {
    const owner = await createAdmin(gateway.pool, [...MANAGE, ACL.auditLogView]);
    const created = await create(
      owner.key,
      { name: 'Key-123_Test!@# ', acls: [ACL.auditLogView, ACL.apiKeyManage, ACL.auditLogView], expires_in_days: 30 },
      {
        'X-Audit-Log-Reason': ' rotating the CI key ',
      },
    );
    expect(created.status).toBe(200);
    expect(Object.keys(created.body).sort()).toEqual(['acls', 'created_at', 'expires_at', 'key', 'key_id', 'name']);
    expect(created.body).toMatchObject({ name: 'Key-123_Test!@# ', acls: [ACL.apiKeyManage, ACL.auditLogView] });
    expect(created.body.key).toMatch(new RegExp(`^fa_${created.body.key_id}_[A-Za-z0-9]{32}$`));
    expect(created.body.created_at).toMatch(ISO);
    const lifetime = Date.parse(created.body.expires_at) - Date.parse(created.body.created_at);
    expect(Math.abs(lifetime - 30 * 86_400_000)).toBeLessThan(5_000);

    const used = await adminCall(gateway.url, {
      method: 'POST',
      path: '/v1/admin/audit-logs',
      key: created.body.key,
      body: {},
    });
    expect(used.status).toBe(200);

    const listed = await list(created.body.key);
    expect(listed.status).toBe(200);
    expect(listed.body.map((key: { key_id: string }) => key.key_id)).toEqual([created.body.key_id, owner.keyId]);
    for (const entry of listed.body) {
      expect(Object.keys(entry).sort()).toEqual([
        'acls',
        'created_at',
        'created_by_user_id',
        'expires_at',
        'key_id',
        'last_used_at',
        'name',
      ]);
      expect(entry.created_by_user_id).toBe(owner.adminId);
    }

    expect(await remove(owner.key, created.body.key_id, { 'X-Audit-Log-Reason': 'leaked' })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    expect((await list(created.body.key)).status).toBe(401);
    expect((await list(owner.key)).body.map((key: { key_id: string }) => key.key_id)).toEqual([owner.keyId]);

    expect(await auditEntries(created.body.key_id)).toEqual([
      {
        admin_user_id: owner.adminId,
        target_type: 'admin_api_key',
        action: 'create_admin_api_key',
        audit_log_reason: 'rotating the CI key',
        metadata: { name: 'Key-123_Test!@# ', acls: `${ACL.apiKeyManage},${ACL.auditLogView}` },
      },
      {
        admin_user_id: owner.adminId,
        target_type: 'admin_api_key',
        action: 'delete_admin_api_key',
        audit_log_reason: 'leaked',
        metadata: { name: 'Key-123_Test!@# ', acls: `${ACL.apiKeyManage},${ACL.auditLogView}` },
      },
    ]);
  });

  it('lists the keys of the owner of the calling key, not expired ones, and never another admin’s', async () => {
    const owner = await createAdmin(gateway.pool, MANAGE);
    const second = await insertKey(gateway.pool, owner.adminId, MANAGE);
    await insertKey(gateway.pool, owner.adminId, MANAGE, { expiresAt: new Date(Date.now() - 1_000) });
    const stranger = await createAdmin(gateway.pool, ['*']);
    const listed = await list(second.key);
    expect(listed.body.map((key: { key_id: string }) => key.key_id)).toEqual([second.keyId, owner.keyId]);
    expect((await list(stranger.key)).body.map((key: { key_id: string }) => key.key_id)).toEqual([stranger.keyId]);
  });

  it('answers 404 ADMIN_API_KEY_NOT_FOUND for unknown, malformed, expired and other admins’ keys', async () => {
    const owner = await createAdmin(gateway.pool, ['*']);
    const stranger: AdminFixture = await createAdmin(gateway.pool, ['*']);
    const expired = await insertKey(gateway.pool, owner.adminId, MANAGE, { expiresAt: new Date(Date.now() - 1_000) });
    for (const keyId of [
      stranger.keyId,
      '123',
      'nonexistent-key-id',
      '-1',
      '1e3',
      '99999999999999999999',
      expired.keyId,
    ]) {
      const answer = await remove(owner.key, keyId);
      expect(answer.status, keyId).toBe(404);
      expect(answer.body).toEqual({ code: 'ADMIN_API_KEY_NOT_FOUND', message: "Admin API key wasn't found." });
    }
    expect((await list(stranger.key)).status).toBe(200);
    const { rows } = await gateway.pool.query(
      `SELECT count(*)::int AS n FROM audit_logs WHERE action = 'delete_admin_api_key' AND admin_user_id = $1`,
      [owner.adminId],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('X-Audit-Log-Reason', () => {
  /** Header bytes are UTF-8; fetch takes them as a latin1 string. */
  const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

  it('is normalised as Fluxer does: U+202E and control characters (C0 and C1) stripped, trimmed, 1..512 or null', async () => {
    const owner = await createAdmin(gateway.pool, ['*']);
    const cases: Array<[string, string | null]> = [
      [utf8('  Spam\u202e-Wel\u0085le \u00fc\u009b\t '), 'Spam-Welle ü'],
      ['r'.repeat(512), 'r'.repeat(512)],
      ['r'.repeat(513), null],
      [utf8(' \u202e '), null],
    ];
    for (const [header, expected] of cases) {
      const created = await create(owner.key, { name: 'reasoned', acls: [] }, { 'X-Audit-Log-Reason': header });
      expect((await auditEntries(created.body.key_id))[0].audit_log_reason).toBe(expected);
    }
    const unreasoned = await create(owner.key, { name: 'unreasoned', acls: [] });
    expect((await auditEntries(unreasoned.body.key_id))[0].audit_log_reason).toBeNull();
  });
});

describe('privilege containment', () => {
  it('refuses to grant an ACL the creator does not hold, naming the first one', async () => {
    const owner = await createAdmin(gateway.pool, [...MANAGE, ACL.banIpCheck]);
    const answer = await create(owner.key, { name: 'x', acls: [ACL.banIpCheck, ACL.banIpAdd, ACL.assetPurge] });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'MISSING_ACL', acl: ACL.banIpAdd });
    expect((await create(owner.key, { name: 'x', acls: ['*'] })).body).toMatchObject({ code: 'MISSING_ACL', acl: '*' });
    expect((await create(owner.key, { name: 'ok', acls: [ACL.banIpCheck] })).status).toBe(200);
  });

  it('limits a key-created key to what both the owner and the calling key hold', async () => {
    const owner = await createAdmin(gateway.pool, ['*'], { keyAcls: MANAGE });
    expect((await create(owner.key, { name: 'x', acls: [ACL.auditLogView] })).body).toMatchObject({
      code: 'MISSING_ACL',
      acl: ACL.auditLogView,
    });
    const narrowOwner = await createAdmin(gateway.pool, MANAGE, { keyAcls: ['*'] });
    expect((await create(narrowOwner.key, { name: 'x', acls: [ACL.auditLogView] })).body).toMatchObject({
      code: 'MISSING_ACL',
      acl: ACL.auditLogView,
    });
    expect((await create(narrowOwner.key, { name: 'x', acls: [ACL.apiKeyManage] })).status).toBe(200);
  });

  it('refuses a key with an expiry creating one that outlives it: no expiry, or more days than it has left', async () => {
    const owner = await createAdmin(gateway.pool, ['*']);
    const hours = 3_600_000;
    const shortLived = await insertKey(gateway.pool, owner.adminId, MANAGE, {
      expiresAt: new Date(Date.now() + 30 * hours),
    });
    for (const body of [
      { name: 'immortal', acls: [] },
      { name: 'longer', acls: [], expires_in_days: 3 },
      { name: 'year', acls: [], expires_in_days: 365 },
    ]) {
      const answer = await create(shortLived.key, body);
      expect([answer.status, answer.body.code], JSON.stringify(body)).toEqual([400, 'INVALID_FORM_BODY']);
      expect(answer.body.errors).toEqual([
        expect.objectContaining({ path: 'expires_in_days', code: 'KEY_OUTLIVES_CREATOR' }),
      ]);
    }
    const { rows } = await gateway.pool.query(
      'SELECT count(*)::int AS n FROM admin_api_keys WHERE admin_user_id = $1',
      [owner.adminId],
    );
    expect(rows[0].n).toBe(2);
    // 30 hours left: up to 2 days may be asked for, and the key is cut at the creator's expiry.
    const oneDay = await create(shortLived.key, { name: 'day', acls: [], expires_in_days: 1 });
    expect(oneDay.status).toBe(200);
    expect(Math.abs(Date.parse(oneDay.body.expires_at) - (Date.now() + 24 * hours))).toBeLessThan(60_000);
    const twoDays = await create(shortLived.key, { name: 'two', acls: MANAGE, expires_in_days: 2 });
    expect(twoDays.status).toBe(200);
    const { rows: creator } = await gateway.pool.query('SELECT expires_at FROM admin_api_keys WHERE id = $1', [
      shortLived.keyId,
    ]);
    expect(Date.parse(twoDays.body.expires_at)).toBe(creator[0].expires_at.getTime());
    // Nor can the child, holding the same rule, mint an immortal grandchild.
    const grandchild = await create(twoDays.body.key, { name: 'grandchild', acls: [] });
    expect([grandchild.status, grandchild.body.code]).toEqual([400, 'INVALID_FORM_BODY']);
    // A key without expiry may still create any lifetime, none included.
    expect((await create(owner.key, { name: 'free', acls: [] })).body.expires_at).toBeNull();
  });

  it('lets a `*` holder grant anything, free-form ACLs included, and an empty set', async () => {
    const owner = await createAdmin(gateway.pool, ['*']);
    const answer = await create(owner.key, { name: 'wide', acls: ['*', 'made:up', ACL.bulkAddGuildMembers] });
    expect(answer.status).toBe(200);
    expect(answer.body.acls).toEqual(['*', ACL.bulkAddGuildMembers, 'made:up']);
    expect(answer.body.expires_at).toBeNull();
    expect((await create(owner.key, { name: 'empty', acls: [] })).body.acls).toEqual([]);
  });
});

describe('validation', () => {
  it('answers 400 with field paths, after authorisation', async () => {
    const owner = await createAdmin(gateway.pool, ['*']);
    const cases: Array<[unknown, string[]]> = [
      [{}, ['name', 'acls']],
      [{ name: '', acls: [] }, ['name']],
      [{ name: '   ', acls: [] }, ['name']],
      [{ name: 'n'.repeat(101), acls: [] }, ['name']],
      [{ name: 'n', acls: 'admin:authenticate' }, ['acls']],
      [{ name: 'n', acls: Array.from({ length: 101 }, (_, i) => `acl:${i}`) }, ['acls']],
      [{ name: 'n', acls: [''] }, ['acls.0']],
      ...[0, -1, 366, 1.5, null, '30'].map((days): [unknown, string[]] => [
        { name: 'n', acls: [], expires_in_days: days },
        ['expires_in_days'],
      ]),
    ];
    for (const [body, paths] of cases) {
      const answer = await create(owner.key, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('INVALID_FORM_BODY');
      expect(answer.body.errors.map((error: { path: string }) => error.path).sort(), JSON.stringify(body)).toEqual(
        [...paths].sort(),
      );
    }
    expect((await create(owner.key, { name: 'n'.repeat(100), acls: [], expires_in_days: 365 })).status).toBe(200);
    expect((await create(owner.key, { name: 'n', acls: [], expires_in_days: 1 })).status).toBe(200);
  });
});
