import { beforeAll, describe, expect, it } from 'vitest';
import { ACL, LIMITS } from '@switchboard/contracts';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminCall, createAdmin, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import { useGateway } from './helpers.ts';

// Totals past the exact bound, relevance classes and offsets over more entries than one page
// (docs/decisions.md#audit-search-at-scale).
const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
let viewer: AdminFixture;

const MINUTE_MS = 60_000;
const START = Date.parse('2025-01-01T00:00:00Z');
const NOISE = LIMITS.auditLogs.exactTotalMax + 200;

interface Entry {
  id: string;
  action: string;
  reason: string | null;
  metadata: Record<string, string>;
  at: number;
  /** Which field class "quota" is in: 0 action (A), 1 reason (B), 2 metadata (C); null: none. */
  quotaClass: 0 | 1 | 2 | null;
}

const entries: Entry[] = [];

function add(entry: Omit<Entry, 'id'>): void {
  entries.push({ id: fixtureIds.next(), ...entry });
}

/** The documented order: class, then newest first, then the larger id. */
function byRelevance(a: Entry, b: Entry): number {
  return a.quotaClass! - b.quotaClass! || b.at - a.at || (BigInt(b.id) > BigInt(a.id) ? 1 : -1);
}
function newestFirst(a: Entry, b: Entry): number {
  return b.at - a.at || (BigInt(b.id) > BigInt(a.id) ? 1 : -1);
}

function call(path: string, body: unknown) {
  return adminCall(gateway.url, { method: 'POST', path, key: viewer.key, body });
}
function ids(body: { logs: Array<{ log_id: string }> }): string[] {
  return body.logs.map((log) => log.log_id);
}

beforeAll(async () => {
  viewer = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView]);
  // "quota" in the action of three entries older than everything else, so the newest entries
  // hold none of them (the class is found from its index, not by walking the dates).
  for (let i = 0; i < 3; i++) {
    add({ action: 'quota_exceeded', reason: null, metadata: {}, at: START + i * MINUTE_MS, quotaClass: 0 });
  }
  // Noise, with "quota" in the reason of every eighth entry and in the metadata of a few.
  for (let i = 0; i < NOISE; i++) {
    const at = START + (10 + i) * MINUTE_MS;
    if (i % 8 === 0) add({ action: 'ban_ip', reason: 'over quota', metadata: {}, at, quotaClass: 1 });
    else if (i % 300 === 1) add({ action: 'ban_ip', reason: null, metadata: { note: 'quota' }, at, quotaClass: 2 });
    else add({ action: 'noise_event', reason: null, metadata: { n: String(i) }, at, quotaClass: null });
  }
  await gateway.pool.query(
    `INSERT INTO audit_logs (id, admin_user_id, target_type, target_id, action, audit_log_reason, metadata, created_at)
     SELECT id, $1, 'user', id::text, action, reason, metadata, at
     FROM unnest($2::bigint[], $3::text[], $4::text[], $5::jsonb[], $6::timestamptz[]) AS e(id, action, reason, metadata, at)`,
    [
      viewer.adminId,
      entries.map((e) => e.id),
      entries.map((e) => e.action),
      entries.map((e) => e.reason),
      entries.map((e) => JSON.stringify(e.metadata)),
      entries.map((e) => new Date(e.at).toISOString()),
    ],
  );
  await gateway.pool.query('ANALYZE audit_logs');
});

describe('audit totals', () => {
  it('are exact up to the bound and an honest integer estimate beyond it', async () => {
    const all = await call('/v1/admin/audit-logs', {});
    expect(all.status).toBe(200);
    expect(all.body.total_is_exact).toBe(false);
    expect(Number.isInteger(all.body.total)).toBe(true);
    expect(all.body.total).toBeGreaterThan(LIMITS.auditLogs.exactTotalMax);

    const noise = entries.filter((e) => e.action === 'noise_event').length;
    expect(noise).toBeGreaterThan(LIMITS.auditLogs.exactTotalMax);
    const searched = await call('/v1/admin/audit-logs/search', { query: 'noise' });
    expect(searched.body).toMatchObject({ total_is_exact: false });
    expect(searched.body.total).toBeGreaterThan(LIMITS.auditLogs.exactTotalMax);

    const bans = entries.filter((e) => e.action === 'ban_ip').length;
    expect(bans).toBeLessThanOrEqual(LIMITS.auditLogs.exactTotalMax);
    expect((await call('/v1/admin/audit-logs', { action: 'ban_ip' })).body).toMatchObject({
      total: bans,
      total_is_exact: true,
    });
  });

  it('are exact from a short last page, and never below what the page shows', async () => {
    const last = await call('/v1/admin/audit-logs', { offset: entries.length - 3, limit: 50 });
    expect(last.body).toMatchObject({ total: entries.length, total_is_exact: true });
    expect(last.body.logs).toHaveLength(3);
    const deep = await call('/v1/admin/audit-logs', { offset: entries.length - 60, limit: 50 });
    expect(deep.body.logs).toHaveLength(50);
    expect(deep.body.total).toBeGreaterThanOrEqual(entries.length - 10);
  });
});

describe('audit list offsets', () => {
  it('page through every entry newest first, deep offsets included', async () => {
    const expected = [...entries].sort(newestFirst).map((e) => e.id);
    for (const offset of [0, 50, LIMITS.auditLogs.exactTotalMax, entries.length - 20]) {
      const page = await call('/v1/admin/audit-logs', { offset, limit: 50 });
      expect(ids(page.body)).toEqual(expected.slice(offset, offset + 50));
    }
  });
});

describe('audit search by relevance', () => {
  const matching = () => entries.filter((e) => e.quotaClass !== null).sort(byRelevance);

  it('ranks action and target over reason over metadata, newest first within each', async () => {
    const expected = matching().map((e) => e.id);
    const first = await call('/v1/admin/audit-logs/search', { query: 'quota', sort_by: 'relevance', limit: 200 });
    expect(first.body).toMatchObject({ total: expected.length, total_is_exact: true });
    expect(ids(first.body)).toEqual(expected.slice(0, 200));
  });

  it('pages exactly across the classes with any limit and offset', async () => {
    const expected = matching().map((e) => e.id);
    const classA = 3;
    const classB = entries.filter((e) => e.quotaClass === 1).length;
    const pages: Array<[limit: number, offset: number]> = [
      [1, 0],
      [2, 2],
      [5, 1],
      [50, 0],
      [50, 50],
      [3, classA + classB - 1],
      [10, classA + classB],
      [4, expected.length - 2],
      [5, expected.length],
    ];
    for (const [limit, offset] of pages) {
      const page = await call('/v1/admin/audit-logs/search', { query: 'quota', sort_by: 'relevance', limit, offset });
      expect(ids(page.body), `limit ${limit} offset ${offset}`).toEqual(expected.slice(offset, offset + limit));
      expect(page.body.total).toBe(expected.length);
    }
  });

  it('keeps a negated word out of every class', async () => {
    const expected = matching()
      .filter((e) => e.reason !== 'over quota')
      .map((e) => e.id);
    const answer = await call('/v1/admin/audit-logs/search', { query: 'quota -over', sort_by: 'relevance' });
    expect(ids(answer.body)).toEqual(expected);
    expect(answer.body).toMatchObject({ total: expected.length, total_is_exact: true });
  });
});
