import { findAdminApiKeyById, listAdminApiKeysByAdmin } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { describe, expect, it } from 'vitest';
import { authenticateAdminApiKey, createAdminWithKey, hashCredential, issueAdminApiKey } from '../src/index.ts';

const environment = useTestEnvironment();
const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
const pool = useTestPool(environment);

describe('createAdminWithKey', () => {
  it('creates the admin and a key whose hash is stored, not the key', async () => {
    const result = await createAdminWithKey(pool(), ids, {
      name: 'ops-create',
      acls: ['audit_log:view', 'ban:ip:add'],
    });
    expect(result.adminCreated).toBe(true);
    expect(result.admin.acls).toEqual(['audit_log:view', 'ban:ip:add']);
    expect(result.key).toMatch(new RegExp(`^fa_${result.record.id}_[A-Za-z0-9]{32}$`));
    const stored = await findAdminApiKeyById(pool(), result.record.id);
    expect(stored!.keyHash.equals(hashCredential(result.key))).toBe(true);
    expect(stored!.adminUserId).toBe(result.admin.id);
    expect(stored!.expiresAt).toBeNull();
  });

  it('reuses an admin by name and only ever adds ACLs to it', async () => {
    const first = await createAdminWithKey(pool(), ids, { name: 'ops-reuse', acls: ['audit_log:view'] });
    const second = await createAdminWithKey(pool(), ids, {
      name: 'ops-reuse',
      acls: ['ban:email:add'],
      expiresInDays: 2,
    });
    expect(second.adminCreated).toBe(false);
    expect(second.admin.id).toBe(first.admin.id);
    expect(second.admin.acls).toEqual(['audit_log:view', 'ban:email:add']);
    expect(second.record.acls).toEqual(['ban:email:add']);
    const days = (second.record.expiresAt!.getTime() - second.record.createdAt.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(2, 2);
    const keys = await listAdminApiKeysByAdmin(pool(), first.admin.id);
    expect(keys.map((k) => k.id)).toEqual([second.record.id, first.record.id]);
  });

  it('refuses a lifetime outside 1..365 days and stores nothing', async () => {
    await expect(createAdminWithKey(pool(), ids, { name: 'ops-bad', acls: [], expiresInDays: 366 })).rejects.toThrow(
      RangeError,
    );
    const { rows } = await pool().query("SELECT 1 FROM admin_users WHERE name = 'ops-bad'");
    expect(rows).toHaveLength(0);
  });
});

describe('authenticateAdminApiKey', () => {
  it('accepts the key it issued and records its use at most once a minute', async () => {
    const { key, admin, record } = await createAdminWithKey(pool(), ids, { name: 'ops-auth', acls: ['*'] });
    const found = await authenticateAdminApiKey(pool(), key);
    expect(found?.key.id).toBe(record.id);
    expect(found?.owner).toMatchObject({ id: admin.id, name: 'ops-auth', acls: ['*'] });
    const firstUse = (await findAdminApiKeyById(pool(), record.id))!.lastUsedAt;
    expect(firstUse).not.toBeNull();
    await authenticateAdminApiKey(pool(), key);
    expect((await findAdminApiKeyById(pool(), record.id))!.lastUsedAt).toEqual(firstUse);
  });

  it('refuses a wrong secret, an unknown id, garbage and an expired key', async () => {
    const { key, admin } = await createAdminWithKey(pool(), ids, { name: 'ops-refuse', acls: ['*'] });
    const tampered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect(await authenticateAdminApiKey(pool(), tampered)).toBeNull();
    expect(await authenticateAdminApiKey(pool(), `fa_${ids.next()}_${'a'.repeat(32)}`)).toBeNull();
    expect(await authenticateAdminApiKey(pool(), 'Admin nonsense')).toBeNull();

    const expiring = await issueAdminApiKey(pool(), ids, {
      adminUserId: admin.id,
      name: 'short',
      acls: [],
      expiresInDays: 1,
    });
    expect(await authenticateAdminApiKey(pool(), expiring.key)).not.toBeNull();
    const later = new Date(Date.now() + 86_400_000 + 1_000);
    expect(await authenticateAdminApiKey(pool(), expiring.key, { now: later })).toBeNull();
  });

  it('stops accepting a key as soon as it is deleted', async () => {
    const { key, record } = await createAdminWithKey(pool(), ids, { name: 'ops-delete', acls: ['*'] });
    expect(await authenticateAdminApiKey(pool(), key)).not.toBeNull();
    await pool().query('DELETE FROM admin_api_keys WHERE id = $1', [record.id]);
    expect(await authenticateAdminApiKey(pool(), key)).toBeNull();
  });
});
