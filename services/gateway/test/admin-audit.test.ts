import { beforeAll, describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { recordAudit, type AuditEntryInput } from '../src/admin-auth/index.ts';
import { adminCall, createAdmin, fixtureIds, insertKey, type AdminFixture } from './admin-helpers.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
let viewer: AdminFixture;
let other: AdminFixture;

type Fixture = Omit<AuditEntryInput, 'adminUserId' | 'apiKeyId'> & { by: 'viewer' | 'other'; at: string };

/** Named entries; ids are filled in after insertion. Dates are deliberately out of order. */
const FIXTURES = {
  banRange: {
    by: 'viewer',
    targetType: 'ip',
    targetId: '10.0.0.0/8',
    action: 'ban_ip',
    reason: 'spam wave from botnet',
    metadata: { ip: '10.0.0.0/8' },
    at: '2024-01-10T12:00:00Z',
  },
  unbanRange: {
    by: 'viewer',
    targetType: 'ip',
    targetId: '10.0.0.0/8',
    action: 'unban_ip',
    reason: null,
    metadata: { ip: '10.0.0.0/8' },
    at: '2024-01-20T08:00:00Z',
  },
  banEmail: {
    by: 'other',
    targetType: 'email',
    targetId: 'spammer@example.com',
    action: 'ban_email',
    reason: 'spam',
    metadata: { email: 'spammer@example.com' },
    at: '2024-02-01T00:00:00Z',
  },
  banPhone: {
    by: 'other',
    targetType: 'phone',
    targetId: '+15551234567',
    action: 'ban_phone',
    reason: 'fraud ring',
    metadata: { phone: '+15551234567' },
    at: '2024-02-15T23:59:59.999Z',
  },
  bulkAdd: {
    by: 'viewer',
    targetType: 'guild',
    targetId: '123456789',
    action: 'bulk_add_guild_members',
    reason: 'migration',
    metadata: { guild_id: '123456789', user_count: '3' },
    at: '2024-03-01T10:00:00Z',
  },
  createKey: {
    by: 'viewer',
    targetType: 'admin_api_key',
    targetId: '777',
    action: 'create_admin_api_key',
    reason: null,
    metadata: { name: 'deploy bot', acls: 'ban:ip:add' },
    at: '2024-03-05T10:00:00Z',
  },
  banAddress: {
    by: 'viewer',
    targetType: 'ip',
    targetId: '192.0.2.1',
    action: 'ban_ip',
    reason: 'spam spam',
    metadata: { ip: '192.0.2.1' },
    at: '2024-03-10T10:00:00Z',
  },
  flagSpam: {
    by: 'viewer',
    targetType: 'user',
    targetId: '42',
    action: 'flag_spam',
    reason: null,
    metadata: {},
    at: '2024-01-01T00:00:00Z',
  },
  deleteMessage: {
    by: 'viewer',
    targetType: 'message',
    targetId: '99',
    action: 'delete_message',
    reason: 'cleanup',
    metadata: { hint: 'spam' },
    at: '2024-03-20T10:00:00Z',
  },
} satisfies Record<string, Fixture>;
type Name = keyof typeof FIXTURES;
const ids = {} as Record<Name, string>;
const NEWEST_FIRST = (Object.keys(FIXTURES) as Name[]).sort(
  (a, b) => Date.parse(FIXTURES[b].at) - Date.parse(FIXTURES[a].at),
);

function list(body: unknown) {
  return adminCall(gateway.url, { method: 'POST', path: '/v1/admin/audit-logs', key: viewer.key, body });
}
function search(body: unknown) {
  return adminCall(gateway.url, { method: 'POST', path: '/v1/admin/audit-logs/search', key: viewer.key, body });
}
/** The fixture names of a response's entries, in order. */
function names(body: { logs: Array<{ log_id: string }> }): string[] {
  const byId = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
  return body.logs.map((log) => byId.get(log.log_id) ?? log.log_id);
}
function errorPaths(body: { errors: Array<{ path: string }> }): string[] {
  return body.errors.map((error) => error.path).sort();
}

beforeAll(async () => {
  viewer = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView]);
  other = await createAdmin(gateway.pool, [ACL.authenticate]);
  for (const [name, { by, at, ...entry }] of Object.entries(FIXTURES) as Array<[Name, Fixture]>) {
    const actor = by === 'viewer' ? viewer : other;
    await recordAudit(gateway.pool, fixtureIds, { ...entry, adminUserId: actor.adminId, apiKeyId: actor.keyId });
    const { rows } = await gateway.pool.query<{ id: string }>(
      "UPDATE audit_logs SET created_at = $3 WHERE action = $1 AND target_id = $2 AND created_at > now() - interval '1 hour' RETURNING id",
      [entry.action, entry.targetId, at],
    );
    ids[name] = rows[0]!.id;
  }
});

describe('POST /v1/admin/audit-logs', () => {
  it('lists every entry newest first with the exact total and the reference shape', async () => {
    const answer = await list({});
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ total: NEWEST_FIRST.length, total_is_exact: true });
    expect(names(answer.body)).toEqual(NEWEST_FIRST);
    expect(answer.body.logs.find((log: { log_id: string }) => log.log_id === ids.bulkAdd)).toEqual({
      log_id: ids.bulkAdd,
      admin_user_id: viewer.adminId,
      api_key_id: viewer.keyId,
      target_type: 'guild',
      target_id: '123456789',
      action: 'bulk_add_guild_members',
      audit_log_reason: 'migration',
      metadata: { guild_id: '123456789', user_count: '3' },
      created_at: '2024-03-01T10:00:00.000Z',
    });
  });

  it('filters by admin, target type, target id (any string) and action', async () => {
    expect(names((await list({ admin_user_id: other.adminId })).body)).toEqual(['banPhone', 'banEmail']);
    expect(names((await list({ admin_user_id: Number.parseInt('0', 10) })).body)).toEqual([]);
    expect(names((await list({ target_type: 'ip' })).body)).toEqual(['banAddress', 'unbanRange', 'banRange']);
    expect(names((await list({ target_id: '10.0.0.0/8' })).body)).toEqual(['unbanRange', 'banRange']);
    expect(names((await list({ target_id: 123456789 })).body)).toEqual(['bulkAdd']);
    const combined = await list({ target_type: 'ip', action: 'ban_ip', admin_user_id: viewer.adminId });
    expect(combined.body).toMatchObject({ total: 2 });
    expect(names(combined.body)).toEqual(['banAddress', 'banRange']);
    expect((await list({ target_id: 'not-a-number', action: 'ban_ip' })).body).toEqual({
      logs: [],
      total: 0,
      total_is_exact: true,
    });
  });

  it('filters by date range: whole days for bare dates, instants otherwise, both ends inclusive', async () => {
    expect(names((await list({ from: '2024-02-01', to: '2024-02-15' })).body)).toEqual(['banPhone', 'banEmail']);
    expect(names((await list({ from: '2024-02-01T00:00:00.001Z', to: '2024-02-15T23:59:59.999Z' })).body)).toEqual([
      'banPhone',
    ]);
    expect(names((await list({ from: '2024-03-05T11:00:00+01:00' })).body)).toEqual([
      'deleteMessage',
      'banAddress',
      'createKey',
    ]);
    expect(names((await list({ to: '2024-01-10' })).body)).toEqual(['banRange', 'flagSpam']);
    expect(names((await list({ from: '2024-03-01', to: '2024-03-01' })).body)).toEqual(['bulkAdd']);
    const reversed = await list({ from: '2024-03-02', to: '2024-03-01' });
    expect(reversed.status).toBe(400);
    expect(errorPaths(reversed.body)).toEqual(['to']);
  });

  it('pages with limit and offset over a stable order, the total unchanged', async () => {
    const pages: string[] = [];
    for (let offset = 0; offset < NEWEST_FIRST.length + 2; offset += 2) {
      const answer = await list({ limit: 2, offset });
      expect(answer.body.total).toBe(NEWEST_FIRST.length);
      pages.push(...names(answer.body));
    }
    expect(pages).toEqual(NEWEST_FIRST);
    // Panels that send numbers as strings are understood.
    expect(names((await list({ limit: '1', offset: '1' })).body)).toEqual([NEWEST_FIRST[1]]);
  });

  it('breaks ties in time by id, newest first', async () => {
    await gateway.pool.query(`UPDATE audit_logs SET created_at = '2023-06-01T00:00:00Z' WHERE id = ANY($1)`, [
      [ids.createKey, ids.banPhone],
    ]);
    try {
      const answer = await list({ to: '2023-06-01' });
      const expected =
        BigInt(ids.createKey) > BigInt(ids.banPhone) ? ['createKey', 'banPhone'] : ['banPhone', 'createKey'];
      expect(names(answer.body)).toEqual(expected);
    } finally {
      await gateway.pool.query('UPDATE audit_logs SET created_at = $2 WHERE id = $1', [
        ids.createKey,
        FIXTURES.createKey.at,
      ]);
      await gateway.pool.query('UPDATE audit_logs SET created_at = $2 WHERE id = $1', [
        ids.banPhone,
        FIXTURES.banPhone.at,
      ]);
    }
  });

  it('answers 400 with field paths for bad filters and bounds', async () => {
    const answer = await list({
      limit: 0,
      offset: -1,
      admin_user_id: 'abc',
      target_type: 't'.repeat(65),
      from: 'yesterday',
      to: 5,
      action: 7,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('INVALID_FORM_BODY');
    expect(errorPaths(answer.body)).toEqual([
      'action',
      'admin_user_id',
      'from',
      'limit',
      'offset',
      'target_type',
      'to',
    ]);
    expect(errorPaths((await list({ limit: 201 })).body)).toEqual(['limit']);
    expect(errorPaths((await list({ limit: 1.5 })).body)).toEqual(['limit']);
    expect((await list({ limit: 200, target_type: '' })).status).toBe(200);
  });
});

describe('POST /v1/admin/audit-logs/search', () => {
  it('finds words in action, target, reason and metadata; identifiers match by their parts', async () => {
    const ban = await search({ query: 'ban' });
    expect(ban.body.total).toBe(5);
    // ban_ip, ban_email, ban_phone and the key whose ACLs mention ban:ip:add, not unban_ip.
    expect(names(ban.body)).toEqual(['banAddress', 'createKey', 'banPhone', 'banEmail', 'banRange']);
    // `ban_ip` is the phrase "ban ip": also the key's ACL `ban:ip:add`, never `unban_ip`.
    expect(names((await search({ query: 'ban_ip' })).body)).toEqual(['banAddress', 'createKey', 'banRange']);
    expect(names((await search({ query: '192.0.2.1' })).body)).toEqual(['banAddress']);
    expect(names((await search({ query: '"deploy bot"' })).body)).toEqual(['createKey']);
    expect(names((await search({ query: 'spam -botnet' })).body)).toEqual([
      'deleteMessage',
      'banAddress',
      'banEmail',
      'flagSpam',
    ]);
    expect(names((await search({ query: 'fraud or migration' })).body)).toEqual(['bulkAdd', 'banPhone']);
    expect((await search({ query: '!!! ::' })).body).toEqual({ logs: [], total: 0, total_is_exact: true });
  });

  it('sorts by relevance (action over reason over metadata, then newest) or by date', async () => {
    expect(names((await search({ query: 'spam', sort_by: 'relevance' })).body)).toEqual([
      'flagSpam',
      'banAddress',
      'banEmail',
      'banRange',
      'deleteMessage',
    ]);
    expect(names((await search({ query: 'spam' })).body)).toEqual([
      'deleteMessage',
      'banAddress',
      'banEmail',
      'banRange',
      'flagSpam',
    ]);
    expect(names((await search({ query: 'spam', sort_order: 'asc' })).body)).toEqual([
      'flagSpam',
      'banRange',
      'banEmail',
      'banAddress',
      'deleteMessage',
    ]);
    const page = await search({ query: 'spam', sort_by: 'relevance', limit: 2, offset: 1 });
    expect(page.body.total).toBe(5);
    expect(names(page.body)).toEqual(['banAddress', 'banEmail']);
  });

  it('applies the list filters, target_type and action included (the old panel sends them)', async () => {
    expect(names((await search({ query: 'spam', admin_user_id: other.adminId })).body)).toEqual(['banEmail']);
    expect(names((await search({ query: 'spam', target_type: 'ip' })).body)).toEqual(['banAddress', 'banRange']);
    expect(names((await search({ query: 'spam', action: 'ban_ip', target_id: '192.0.2.1' })).body)).toEqual([
      'banAddress',
    ]);
    const ranged = await search({ query: 'spam', from: '2024-01-05', to: '2024-02-28', sort_by: 'relevance' });
    expect(ranged.body.total).toBe(2);
    expect(names(ranged.body)).toEqual(['banEmail', 'banRange']);
  });

  it('answers 400 with field paths for a missing or bad query and bad sort options', async () => {
    expect(errorPaths((await search({})).body)).toEqual(['query']);
    expect(errorPaths((await search({ query: '   ' })).body)).toEqual(['query']);
    expect(errorPaths((await search({ query: 'q'.repeat(1025) })).body)).toEqual(['query']);
    expect(errorPaths((await search({ query: 'q', sort_by: 'date', sort_order: 'up', limit: 500 })).body)).toEqual([
      'limit',
      'sort_by',
      'sort_order',
    ]);
    expect((await search({ query: 'q'.repeat(1024) })).status).toBe(200);
  });
});

describe('the acting key', () => {
  // Last: it adds entries the totals above do not count.
  it('is recorded with its owner on every entry, so one of several keys can be told apart', async () => {
    const owner = await createAdmin(gateway.pool, ['*']);
    const second = await insertKey(gateway.pool, owner.adminId, ['*']);
    for (const key of [owner.key, second.key]) {
      const answer = await adminCall(gateway.url, {
        method: 'POST',
        path: '/v1/admin/bans/email/add',
        key,
        body: { email: `k${key.slice(-6)}@example.com` },
      });
      expect(answer.status).toBe(204);
    }
    const entries = await adminCall(gateway.url, {
      method: 'POST',
      path: '/v1/admin/audit-logs',
      key: owner.key,
      body: { admin_user_id: owner.adminId },
    });
    expect(
      entries.body.logs.map((log: { api_key_id: string; action: string }) => [log.action, log.api_key_id]),
    ).toEqual([
      ['ban_email', second.keyId],
      ['ban_email', owner.keyId],
    ]);
  });
});
