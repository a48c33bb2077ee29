import { inOneSnapshot, type Queryable } from '../pool.ts';
import { QUERY, RELEVANCE_CLASSES } from './audit-log-relevance.ts';
import { totalOf } from './audit-log-totals.ts';

/**
 * One audit entry (docs/decisions.md#fluxer-audit-entries): who did what to which target, why, with
 * string metadata.
 */
export interface AuditLog {
  id: string;
  adminUserId: string;
  /** The key the admin acted with; null for entries older than migration 0014. */
  apiKeyId: string | null;
  targetType: string;
  targetId: string;
  action: string;
  reason: string | null;
  metadata: Record<string, string>;
  createdAt: Date;
}

export type NewAuditLog = Omit<AuditLog, 'createdAt'>;

const COLUMNS = `id, admin_user_id AS "adminUserId", api_key_id::text AS "apiKeyId", target_type AS "targetType", target_id AS "targetId",
  action, audit_log_reason AS "reason", metadata, created_at AS "createdAt"`;

/** Inserts every entry in one statement (in the caller's transaction when given a client). */
export async function insertAuditLogs(db: Queryable, entries: readonly NewAuditLog[]): Promise<number> {
  if (entries.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO audit_logs (id, admin_user_id, target_type, target_id, action, audit_log_reason, metadata, api_key_id)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::bigint[])`,
    [
      entries.map((e) => e.id),
      entries.map((e) => e.adminUserId),
      entries.map((e) => e.targetType),
      entries.map((e) => e.targetId),
      entries.map((e) => e.action),
      entries.map((e) => e.reason),
      entries.map((e) => JSON.stringify(e.metadata)),
      entries.map((e) => e.apiKeyId),
    ],
  );
  return result.rowCount ?? 0;
}

export async function findAuditLogById(db: Queryable, id: string): Promise<AuditLog | null> {
  const { rows } = await db.query<AuditLog>(`SELECT ${COLUMNS} FROM audit_logs WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** Exact-match filters shared by list and search; `from` inclusive, `before` exclusive. */
export interface AuditLogFilters {
  adminUserId?: string;
  targetType?: string;
  targetId?: string;
  action?: string;
  from?: Date;
  before?: Date;
}

export interface AuditLogPage {
  limit: number;
  offset: number;
}

export interface AuditLogResult {
  logs: AuditLog[];
  /**
   * Every entry matching the filters (and query), not just this page: exact up to
   * `LIMITS.auditLogs.exactTotalMax`, beyond it the planner's estimate (never below what is known).
   */
  total: number;
  totalIsExact: boolean;
}

export type AuditLogSort = 'createdAt' | 'relevance';

export interface AuditLogSearch extends AuditLogPage {
  /** Web-search syntax ("quoted phrase", -not, or) over action, target, reason and metadata. */
  query: string;
  sortBy: AuditLogSort;
  /** Only for `createdAt`; relevance is always best first (newest first among equals). */
  sortOrder: 'asc' | 'desc';
}

/** `WHERE …` for the filters; parameters are appended to `params`. */
function whereClause(filters: AuditLogFilters, params: unknown[]): string[] {
  const conditions: string[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (filters.adminUserId !== undefined) add((p) => `admin_user_id = ${p}`, filters.adminUserId);
  if (filters.targetType !== undefined) add((p) => `target_type = ${p}`, filters.targetType);
  if (filters.targetId !== undefined) add((p) => `target_id = ${p}`, filters.targetId);
  if (filters.action !== undefined) add((p) => `action = ${p}`, filters.action);
  if (filters.from !== undefined) add((p) => `created_at >= ${p}`, filters.from);
  if (filters.before !== undefined) add((p) => `created_at < ${p}`, filters.before);
  return conditions;
}

function where(conditions: string[]): string {
  return conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
}

/** Entries matching `filters`, newest first. */
export async function listAuditLogs(
  db: Queryable,
  filters: AuditLogFilters,
  page: AuditLogPage,
): Promise<AuditLogResult> {
  const params: unknown[] = [];
  const filter = where(whereClause(filters, params));
  const n = params.length;
  return inOneSnapshot(db, async (client) => {
    // The page's ids first, from the (created_at, id) index alone when no filter needs a row:
    // a deep offset then skips index entries, not rows.
    const { rows } = await client.query<AuditLog>(
      `SELECT ${COLUMNS} FROM audit_logs JOIN (
         SELECT id FROM audit_logs ${filter} ORDER BY created_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}
       ) AS page USING (id)
       ORDER BY created_at DESC, id DESC`,
      [...params, page.limit, page.offset],
    );
    return { logs: rows, ...(await totalOf(client, filter, params, page, rows.length)) };
  });
}

/**
 * Full-text search over the generated `search` column (GIN) with the 'simple' configuration,
 * which splits identifiers on `_`, so `ban` finds `ban_ip`. By relevance, entries rank by
 * the best field class the query matches in (relevance.ts), newest first within a class.
 */
export async function searchAuditLogs(
  db: Queryable,
  filters: AuditLogFilters,
  search: AuditLogSearch,
): Promise<AuditLogResult> {
  const params: unknown[] = [search.query];
  const filterConditions = whereClause(filters, params);
  const conditions = [`search @@ ${QUERY}`, ...filterConditions];
  return inOneSnapshot(db, async (client) => {
    const logs =
      search.sortBy === 'relevance'
        ? await pageByRelevance(client, filterConditions, params, search)
        : await pageByDate(client, conditions, params, search);
    return { logs, ...(await totalOf(client, where(conditions), params, search, logs.length)) };
  });
}

async function pageByDate(
  db: Queryable,
  conditions: string[],
  params: unknown[],
  search: AuditLogSearch,
): Promise<AuditLog[]> {
  const direction = search.sortOrder === 'asc' ? 'ASC' : 'DESC';
  const n = params.length;
  const { rows } = await db.query<AuditLog>(
    `SELECT ${COLUMNS} FROM audit_logs ${where(conditions)}
     ORDER BY created_at ${direction}, id ${direction} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...params, search.limit, search.offset],
  );
  return rows;
}

/**
 * The page of the ranking in audit-log-relevance.ts: each class in turn, newest first, from
 * where the classes before it leave off, stopping once the page is full (so a common term never
 * has all its matches ranked).
 */
async function pageByRelevance(
  db: Queryable,
  filterConditions: string[],
  params: unknown[],
  search: AuditLogSearch,
): Promise<AuditLog[]> {
  const logs: AuditLog[] = [];
  let { limit, offset } = search;
  for (const inRank of RELEVANCE_CLASSES) {
    const inClass = { filters: filterConditions, rank: inRank };
    const rows = await pageOfClass(db, inClass, params, { limit, offset });
    logs.push(...rows);
    if (rows.length === limit) break;
    // This class ends before the page does: the next one starts with what is left of the offset.
    const classSize = rows.length > 0 || offset === 0 ? offset + rows.length : await countClass(db, inClass, params);
    offset -= Math.min(offset, classSize);
    limit -= rows.length;
  }
  return logs;
}

/** Entries the page of a class is first looked for among, per entry up to the page's end. */
const RECENT_PER_ENTRY = 100;
const RECENT_MAX = 100_000;

interface RelevanceClass {
  filters: string[];
  rank: string;
}

/**
 * One page of a class, newest first. Walking the date index until the page is found is right for
 * a common class and a scan of the whole log for a rare one, and the planner cannot tell them
 * apart (a term missing from a class's statistics is costed as 0.5 % of the entries). So the walk
 * is bounded: the newest entries passing the filters, 100 for each entry up to the page's end. If
 * those hold the page it is exact (they are the newest); else the class is rare among recent
 * entries and is collected whole from its index, then sorted.
 */
async function pageOfClass(
  db: Queryable,
  inClass: RelevanceClass,
  params: unknown[],
  page: AuditLogPage,
): Promise<AuditLog[]> {
  const n = params.length;
  const pageParams = [...params, page.limit, page.offset];
  const end = page.offset + page.limit;
  const recent = await db.query<AuditLog>(
    `SELECT ${COLUMNS} FROM (
       SELECT * FROM audit_logs ${where(inClass.filters)} ORDER BY created_at DESC, id DESC LIMIT $${n + 3}
     ) AS recent WHERE ${inClass.rank}
     ORDER BY created_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...pageParams, Math.min(end * RECENT_PER_ENTRY, RECENT_MAX)],
  );
  if (recent.rows.length === page.limit) return recent.rows;
  // MATERIALIZED: the members are collected without the page's order, so from the class's index.
  const { rows } = await db.query<AuditLog>(
    `WITH members AS MATERIALIZED (
       SELECT id, created_at FROM audit_logs ${where([inClass.rank, ...inClass.filters])}
     )
     SELECT ${COLUMNS} FROM audit_logs JOIN (
       SELECT id FROM members ORDER BY created_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}
     ) AS page USING (id)
     ORDER BY created_at DESC, id DESC`,
    pageParams,
  );
  return rows;
}

/** How many entries a class holds (no ORDER BY or LIMIT, so the planner reads its index). */
async function countClass(db: Queryable, inClass: RelevanceClass, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ total: string }>(
    `SELECT count(*) AS total FROM audit_logs ${where([inClass.rank, ...inClass.filters])}`,
    params,
  );
  return Number(rows[0]!.total);
}
