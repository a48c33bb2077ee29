import type { Queryable } from '../pool.ts';

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
  /** Every entry matching the filters (and query), not just this page. */
  total: number;
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

/**
 * One page plus the exact total. The two statements run concurrently when `db` is a pool (the
 * count has to visit every match; the page stops after offset + limit rows of an index).
 */
async function pageWithTotal(
  db: Queryable,
  conditions: string[],
  params: unknown[],
  orderBy: string,
  page: AuditLogPage,
): Promise<AuditLogResult> {
  const filter = where(conditions);
  const pageParams = [...params, page.limit, page.offset];
  const n = params.length;
  const [rows, count] = await Promise.all([
    db.query<AuditLog>(
      `SELECT ${COLUMNS} FROM audit_logs ${filter} ORDER BY ${orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
      pageParams,
    ),
    db.query<{ total: string }>(`SELECT count(*) AS total FROM audit_logs ${filter}`, params),
  ]);
  return { logs: rows.rows, total: Number(count.rows[0]!.total) };
}

/** Entries matching `filters`, newest first. */
export async function listAuditLogs(
  db: Queryable,
  filters: AuditLogFilters,
  page: AuditLogPage,
): Promise<AuditLogResult> {
  const params: unknown[] = [];
  const conditions = whereClause(filters, params);
  return pageWithTotal(db, conditions, params, 'created_at DESC, id DESC', page);
}

/**
 * Full-text search over the generated `search` column (GIN) with the 'simple' configuration,
 * which splits identifiers on `_`, so `ban` finds `ban_ip`. Relevance is `ts_rank_cd` with
 * the column's weights (action and target above reason above metadata).
 */
export async function searchAuditLogs(
  db: Queryable,
  filters: AuditLogFilters,
  search: AuditLogSearch,
): Promise<AuditLogResult> {
  const params: unknown[] = [search.query];
  const conditions = ["search @@ websearch_to_tsquery('simple', $1)", ...whereClause(filters, params)];
  const direction = search.sortOrder === 'asc' ? 'ASC' : 'DESC';
  const orderBy =
    search.sortBy === 'relevance'
      ? "ts_rank_cd(search, websearch_to_tsquery('simple', $1)) DESC, created_at DESC, id DESC"
      : `created_at ${direction}, id ${direction}`;
  return pageWithTotal(db, conditions, params, orderBy, search);
}
