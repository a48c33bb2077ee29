import { LIMITS } from '@switchboard/contracts';
import type { Queryable } from '../pool.ts';

/** How many audit entries match `filter` (`WHERE …` or empty), counting no further than `max`. */
export async function countUpTo(db: Queryable, filter: string, params: unknown[], max: number): Promise<number> {
  const { rows } = await db.query<{ total: string }>(
    `SELECT count(*) AS total FROM (SELECT 1 FROM audit_logs ${filter} LIMIT $${params.length + 1}) AS counted`,
    [...params, max],
  );
  return Number(rows[0]!.total);
}

/** The planner's estimate of the entries matching `filter`, from the table's statistics. */
async function estimateCount(db: Queryable, filter: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM audit_logs ${filter}`,
    params,
  );
  return Math.round(rows[0]!['QUERY PLAN'][0].Plan['Plan Rows']);
}

/**
 * The total of a list or search. A short page that is not past the end ends the matches, so
 * offset plus page is the total. Otherwise exact up to `exactTotalMax` matches, which costs at
 * most that many rows; beyond it the estimate, raised to what is known to exist, since an exact
 * count would visit every match.
 */
export async function totalOf(
  db: Queryable,
  filter: string,
  params: unknown[],
  page: { limit: number; offset: number },
  pageSize: number,
): Promise<{ total: number; totalIsExact: boolean }> {
  if (pageSize < page.limit && (pageSize > 0 || page.offset === 0)) {
    return { total: page.offset + pageSize, totalIsExact: true };
  }
  const max = LIMITS.auditLogs.exactTotalMax;
  const counted = await countUpTo(db, filter, params, max + 1);
  if (counted <= max) return { total: counted, totalIsExact: true };
  const estimate = await estimateCount(db, filter, params);
  return { total: Math.max(estimate, counted, page.offset + pageSize), totalIsExact: false };
}
