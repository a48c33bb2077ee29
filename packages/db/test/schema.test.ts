import { createHash } from 'node:crypto';
import { createSnowflakeGenerator, snowflakeTimestamp } from '@switchboard/snowflake';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { describe, expect, it } from 'vitest';
import {
  ChannelType,
  deleteAdminApiKey,
  findGuildById,
  findMember,
  insertAdminApiKey,
  insertAdminUser,
  insertChannels,
  insertGeneratedMessages,
  insertGuild,
  insertMembers,
  insertRoles,
  insertUsers,
  insertUserTokens,
  listAdminApiKeysByAdmin,
  recordUserTokenSeen,
  revokeUserTokensInNetwork,
  summarizeChannelMessages,
  touchAdminApiKeyLastUsed,
} from '../src/index.ts';

const environment = useTestEnvironment();
const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
const sha = (value: string) => createHash('sha256').update(value).digest();
const pool = useTestPool(environment);

/** A guild with an owner, a category, two text channels, roles and one member. */
async function guildFixture() {
  const [ownerId, memberId, guildId, categoryId, textA, textB, roleId] = Array.from({ length: 7 }, () => ids.next());
  await insertUsers(pool(), [
    { id: ownerId!, username: 'owner', email: `owner-${ownerId}@example.test` },
    { id: memberId!, username: 'member' },
  ]);
  await insertGuild(pool(), { id: guildId!, name: 'Test guild', ownerId: ownerId! });
  await insertChannels(pool(), [
    { id: textA!, guildId: guildId!, type: ChannelType.GuildText, name: 'general', position: 1, parentId: categoryId! },
    { id: categoryId!, guildId: guildId!, type: ChannelType.GuildCategory, name: 'Text', position: 0 },
    { id: textB!, guildId: guildId!, type: ChannelType.GuildText, name: 'random', position: 2, parentId: categoryId! },
  ]);
  await insertRoles(pool(), [
    { id: guildId!, guildId: guildId!, name: '@everyone', permissions: 1n << 10n, position: 0 },
    { id: roleId!, guildId: guildId!, name: 'Webhooks', permissions: 1n << 29n, position: 1 },
  ]);
  await insertMembers(pool(), guildId!, [{ userId: ownerId! }, { userId: memberId!, roleIds: [roleId!], nick: 'm' }]);
  return { ownerId: ownerId!, memberId: memberId!, guildId: guildId!, textA: textA!, textB: textB!, roleId: roleId! };
}

describe('domain tables', () => {
  it('keeps member_count with the members table, set-based and idempotent', async () => {
    const { guildId, memberId, roleId, ownerId } = await guildFixture();
    expect((await findGuildById(pool(), guildId))!.memberCount).toBe(2);
    expect(await insertMembers(pool(), guildId, [{ userId: memberId }, { userId: ownerId }])).toEqual([]);
    expect((await findGuildById(pool(), guildId))!.memberCount).toBe(2);
    expect((await findMember(pool(), guildId, memberId))!.roleIds).toEqual([roleId]);
    await pool().query('DELETE FROM members WHERE guild_id = $1 AND user_id = $2', [guildId, memberId]);
    expect((await findGuildById(pool(), guildId))!.memberCount).toBe(1);
  });

  it('generates messages with real snowflakes spread over the channels', async () => {
    const { guildId, ownerId, memberId, textA, textB } = await guildFixture();
    const start = ids.nextBigInt() >> 22n;
    const inserted = await insertGeneratedMessages(pool(), {
      guildId,
      channelIds: [textA, textB],
      authorIds: [ownerId, memberId],
      phrases: ['hello', 'world'],
      startMs: start + 1n,
      workerId: testSnowflakeWorkerId(),
      from: 0,
      to: 5000,
    });
    expect(inserted).toBe(5000);
    const summary = await summarizeChannelMessages(pool(), [textA, textB]);
    expect(summary.map((s) => s.count)).toEqual([2500, 2500]);
    const { rows } = await pool().query<{ id: string; created_at: Date; content: string }>(
      'SELECT id, created_at, content FROM messages WHERE channel_id = $1 ORDER BY id DESC LIMIT 1',
      [textB],
    );
    expect(rows[0]!.created_at.getTime()).toBe(snowflakeTimestamp(rows[0]!.id).getTime());
    expect(rows[0]!.content).toMatch(/^(hello|world) \(#4999\)$/);
  });

  it('enforces foreign keys and cascades a guild deletion, but not past its owner', async () => {
    const { guildId, ownerId, textA } = await guildFixture();
    await expect(
      pool().query("INSERT INTO messages (id, channel_id, guild_id, content) VALUES ($1, $2, $3, 'x')", [
        ids.next(),
        ids.next(),
        guildId,
      ]),
    ).rejects.toMatchObject({ code: '23503' });
    await pool().query(
      `INSERT INTO webhooks (id, guild_id, channel_id, creator_id, name, token) VALUES ($1, $2, $3, $4, 'hook', $5)`,
      [ids.next(), guildId, textA, ownerId, 'a'.repeat(64)],
    );
    await expect(pool().query('DELETE FROM users WHERE id = $1', [ownerId])).rejects.toMatchObject({ code: '23503' });
    await pool().query('DELETE FROM guilds WHERE id = $1', [guildId]);
    for (const table of ['channels', 'roles', 'members', 'webhooks']) {
      const { rows } = await pool().query(`SELECT 1 FROM ${table} WHERE guild_id = $1`, [guildId]);
      expect(rows, table).toHaveLength(0);
    }
  });

  it('holds a webhook delivery id on one message of that webhook at most', async () => {
    const { guildId, textA } = await guildFixture();
    const [webhookId, otherWebhookId] = [ids.next(), ids.next()];
    const insert = (id: string, hook: string) =>
      pool().query(
        `INSERT INTO messages (id, channel_id, guild_id, webhook_id, webhook_name, delivery_id) VALUES ($1, $2, $3, $4, 'hook', 'delivery-1')
         ON CONFLICT DO NOTHING RETURNING id`,
        [id, textA, guildId, hook],
      );
    const results = await Promise.all([
      insert(ids.next(), webhookId),
      insert(ids.next(), webhookId),
      insert(ids.next(), webhookId),
    ]);
    expect(results.map((r) => r.rowCount).sort()).toEqual([0, 0, 1]);
    expect((await insert(ids.next(), otherWebhookId)).rowCount).toBe(1);
  });

  it('revokes tokens last seen inside a banned range', async () => {
    const { ownerId, memberId } = await guildFixture();
    const [inside, outside, unseen] = ['inside', 'outside', 'unseen'].map((name) => sha(`${name}-${ownerId}`));
    await insertUserTokens(pool(), [
      { tokenHash: inside!, userId: ownerId, kind: 'user' },
      { tokenHash: outside!, userId: memberId, kind: 'bot' },
      { tokenHash: unseen!, userId: memberId, kind: 'user' },
    ]);
    await recordUserTokenSeen(pool(), inside!, '203.0.113.7');
    await recordUserTokenSeen(pool(), outside!, '198.51.100.1');
    expect(await revokeUserTokensInNetwork(pool(), '203.0.113.0/24')).toBe(1);
    const { rows } = await pool().query<{ n: number }>(
      'SELECT count(*)::int AS n FROM user_tokens WHERE token_hash = ANY($1)',
      [[inside, outside, unseen]],
    );
    expect(rows[0]!.n).toBe(2);
  });
});

describe('admin tables', () => {
  it('keeps each admin to its own keys and touches last_used_at at most once per interval', async () => {
    const alice = await insertAdminUser(pool(), { id: ids.next(), name: 'alice', acls: ['*', '*'] });
    const bob = await insertAdminUser(pool(), { id: ids.next(), name: 'bob', acls: [] });
    expect(alice.acls).toEqual(['*']);
    const key = await insertAdminApiKey(pool(), {
      id: ids.next(),
      adminUserId: alice.id,
      name: 'k',
      keyHash: sha('k'),
      acls: ['b', 'a'],
      expiresAt: null,
    });
    expect(key.acls).toEqual(['a', 'b']);
    expect(await touchAdminApiKeyLastUsed(pool(), key.id)).toBe(true);
    expect(await touchAdminApiKeyLastUsed(pool(), key.id)).toBe(false);
    expect(await deleteAdminApiKey(pool(), { id: key.id, adminUserId: bob.id })).toBe(false);
    expect(await listAdminApiKeysByAdmin(pool(), alice.id)).toHaveLength(1);
    expect(await deleteAdminApiKey(pool(), { id: key.id, adminUserId: alice.id })).toBe(true);
    expect(await listAdminApiKeysByAdmin(pool(), alice.id)).toHaveLength(0);
  });

  it('finds audit entries by metadata value, reason and action through the generated tsvector', async () => {
    const admin = await insertAdminUser(pool(), { id: ids.next(), name: 'auditor', acls: ['*'] });
    const entryId = ids.next();
    await pool().query(
      `INSERT INTO audit_logs (id, admin_user_id, target_type, target_id, action, audit_log_reason, metadata)
       VALUES ($1, $2, 'ip', '0', 'ban_ip', 'Credential stuffing from this block', $3)`,
      [entryId, admin.id, { ip: '192.0.2.55', note: 'zebrafish' }],
    );
    for (const query of ['zebrafish', '192.0.2.55', 'stuffing', 'ban & ip']) {
      const { rows } = await pool().query<{ id: string }>(
        "SELECT id FROM audit_logs WHERE search @@ to_tsquery('simple', $1)",
        [query],
      );
      expect(
        rows.map((r) => r.id),
        query,
      ).toEqual([entryId]);
    }
  });

  it('stores IP bans canonically so one network is one ban, and matches covering ranges', async () => {
    await pool().query("INSERT INTO ip_bans (id, network, display) VALUES ($1, '2001:db8::1', '2001:0db8:0000::1')", [
      ids.next(),
    ]);
    await expect(
      pool().query("INSERT INTO ip_bans (id, network, display) VALUES ($1, '2001:0db8::0001', '2001:0db8::0001')", [
        ids.next(),
      ]),
    ).rejects.toMatchObject({ code: '23505' });
    await pool().query("INSERT INTO ip_bans (id, network, display) VALUES ($1, '10.0.0.0/8', '10.0.0.0/8')", [
      ids.next(),
    ]);
    const { rows } = await pool().query<{ display: string }>('SELECT display FROM ip_bans WHERE network >>= $1::inet', [
      '10.20.30.40',
    ]);
    expect(rows.map((r) => r.display)).toEqual(['10.0.0.0/8']);
  });

  it('refuses impossible job states', async () => {
    const admin = await insertAdminUser(pool(), { id: ids.next(), name: 'archivist', acls: ['*'] });
    const insert = (status: string) =>
      pool().query(
        `INSERT INTO archives (id, subject_type, subject_id, requested_by, status, expires_at)
         VALUES ($1, 'guild', 1, $2, $3, now() + interval '365 days')`,
        [ids.next(), admin.id, status],
      );
    await expect(insert('queued')).resolves.toBeDefined();
    await expect(insert('completed')).rejects.toMatchObject({ code: '23514' });
    await expect(insert('paused')).rejects.toMatchObject({ code: '23514' });
    await expect(pool().query('DELETE FROM admin_users WHERE id = $1', [admin.id])).rejects.toMatchObject({
      code: '23503',
    });
  });
});
