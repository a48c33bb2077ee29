import { describe, expect, it } from 'vitest';
import { insertAdminUser, searchAuditLogs } from '@switchboard/db';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { auditBenchCases } from '../src/benchmarks/audit-search/cases.ts';
import { percentile } from '../src/measure.ts';
import { seedAuditLogs } from '../src/benchmarks/audit-search/seed.ts';

const environment = useTestEnvironment();
const pool = useTestPool(environment);

describe('audit-search benchmark', () => {
  it('seeds entries set-based with the documented mix, unique time-ordered ids and searchable text', async () => {
    const admins = [
      await insertAdminUser(pool(), { id: '101', name: 'a', acls: [] }),
      await insertAdminUser(pool(), { id: '102', name: 'b', acls: [] }),
    ];
    await seedAuditLogs(pool(), { entries: 2_000, adminIds: admins.map((admin) => admin.id), days: 10, chunk: 700 });

    const { rows } = await pool().query<{ action: string; n: number }>(
      'SELECT action, count(*)::int AS n FROM audit_logs GROUP BY action',
    );
    const byAction = Object.fromEntries(rows.map((row) => [row.action, row.n]));
    expect(byAction['ban_ip']! + byAction['unban_ip']!).toBe(800);
    expect(byAction['bulk_add_guild_members']).toBe(300);
    const { rows: order } = await pool().query<{ disordered: number; distinct_ids: number; admins: number }>(
      `SELECT count(*) FILTER (WHERE prev_at > created_at)::int AS disordered, count(DISTINCT id)::int AS distinct_ids,
              count(DISTINCT admin_user_id)::int AS admins
       FROM (SELECT id, created_at, admin_user_id, lag(created_at) OVER (ORDER BY id) AS prev_at FROM audit_logs) t`,
    );
    expect(order[0]).toEqual({ disordered: 0, distinct_ids: 2_000, admins: 2 });

    const spam = await searchAuditLogs(
      pool(),
      {},
      { query: 'spam', sortBy: 'relevance', sortOrder: 'desc', limit: 5, offset: 0 },
    );
    expect(spam.total).toBeGreaterThan(50);
    expect(spam.logs).toHaveLength(5);
    const needle = await searchAuditLogs(
      pool(),
      {},
      { query: 'user48@example.com', sortBy: 'createdAt', sortOrder: 'desc', limit: 5, offset: 0 },
    );
    expect(needle.logs.map((log) => log.metadata['email'])).toEqual(Array(needle.total).fill('user48@example.com'));
    expect(needle.total).toBeGreaterThan(0);
  });

  it('has valid request bodies and computes nearest-rank percentiles', () => {
    expect(auditBenchCases({ adminUserId: '1', now: new Date() }).length).toBeGreaterThan(8);
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(values, 50), percentile(values, 95), percentile(values, 99), percentile([7], 95)]).toEqual([
      50, 95, 99, 7,
    ]);
  });
});
