import type { Queryable } from '../pool.ts';

/**
 * Email, phone and IP bans (docs/decisions.md#bans). Values arrive canonical (email lower-cased, phone
 * E.164, IP networks as `cidr` text), de-duplicated, and every write is one set-based
 * statement. A ban whose `expires_at` has passed no longer applies: readers filter on it, and
 * re-adding such a ban starts a new one (new creator and creation time).
 */

export type ValueBanKind = 'email' | 'phone';

// Interpolated into SQL: only these constants, never input.
const VALUE_TABLES: Record<ValueBanKind, string> = { email: 'email_bans', phone: 'phone_bans' };

/** What an add request sets on every value it names. */
export interface BanAttributes {
  reason: string | null;
  expiresAt: Date | null;
  createdBy: string;
}

export interface ValueBan {
  value: string;
  reason: string | null;
  expiresAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  /** created_at at full (microsecond) precision, for list cursors. */
  cursorTime: string;
}

export interface IpBan {
  id: string;
  /** The `cidr` text PostgreSQL gives, e.g. `10.0.0.1/32`. */
  network: string;
  display: string;
  reason: string | null;
  expiresAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  cursorTime: string;
}

/** Keyset position of a list page: the last entry's `cursorTime` and key (value or id). */
export interface BanListPosition {
  time: string;
  key: string;
}

export interface BanListQuery {
  limit: number;
  after?: BanListPosition | undefined;
  includeExpired: boolean;
  /** Only bans whose value (for IP bans: network or the form it was written in) contains this, any case. */
  contains?: string | undefined;
}

/** `contains` as an ILIKE pattern: its own `%`, `_` and `\\` match themselves. */
function containsPattern(contains: string | undefined): string | null {
  return contains === undefined ? null : `%${contains.replace(/[\\%_]/g, '\\$&')}%`;
}

/** $1..$5 of both list queries: page size, the position after which to start, expired or not, filter. */
function listParameters(query: BanListQuery): unknown[] {
  return [
    query.limit,
    query.after?.time ?? null,
    query.after?.key ?? null,
    query.includeExpired,
    containsPattern(query.contains),
  ];
}

const CURSOR_TIME = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "cursorTime"`;
const COMMON = `reason, expires_at AS "expiresAt", created_by AS "createdBy", created_at AS "createdAt", ${CURSOR_TIME}`;
const LIVE = '(expires_at IS NULL OR expires_at > now())';
// A conflicting row that had expired is replaced as a new ban; a live one keeps its origin.
const RESTART = (table: string) => `CASE WHEN ${table}.expires_at <= now()`;

export async function upsertValueBans(
  db: Queryable,
  kind: ValueBanKind,
  values: string[],
  attributes: BanAttributes,
): Promise<void> {
  if (values.length === 0) return;
  const table = VALUE_TABLES[kind];
  await db.query(
    `INSERT INTO ${table} AS b (value, reason, expires_at, created_by)
     SELECT v, $2, $3, $4 FROM unnest($1::text[]) AS v
     ON CONFLICT (value) DO UPDATE SET
       reason = EXCLUDED.reason,
       expires_at = EXCLUDED.expires_at,
       created_by = ${RESTART('b')} THEN EXCLUDED.created_by ELSE b.created_by END,
       created_at = ${RESTART('b')} THEN now() ELSE b.created_at END`,
    [values, attributes.reason, attributes.expiresAt, attributes.createdBy],
  );
}

/** Deletes the bans on `values`; returns the values that were banned (live or expired). */
export async function deleteValueBans(db: Queryable, kind: ValueBanKind, values: string[]): Promise<string[]> {
  if (values.length === 0) return [];
  const { rows } = await db.query<{ value: string }>(
    `DELETE FROM ${VALUE_TABLES[kind]} WHERE value = ANY($1::text[]) RETURNING value`,
    [values],
  );
  return rows.map((row) => row.value);
}

export async function findLiveValueBan(db: Queryable, kind: ValueBanKind, value: string): Promise<ValueBan | null> {
  const { rows } = await db.query<ValueBan>(
    `SELECT value, ${COMMON} FROM ${VALUE_TABLES[kind]} WHERE value = $1 AND ${LIVE}`,
    [value],
  );
  return rows[0] ?? null;
}

/** Newest first (created_at, then value, descending), starting after `after`. */
export async function listValueBans(db: Queryable, kind: ValueBanKind, query: BanListQuery): Promise<ValueBan[]> {
  const { rows } = await db.query<ValueBan>(
    `SELECT value, ${COMMON} FROM ${VALUE_TABLES[kind]}
     WHERE ($2::timestamptz IS NULL OR (created_at, value) < ($2::timestamptz, $3::text))
       AND ($4 OR ${LIVE})
       AND ($5::text IS NULL OR value ILIKE $5)
     ORDER BY created_at DESC, value DESC
     LIMIT $1`,
    listParameters(query),
  );
  return rows;
}

export interface NewIpBan {
  id: string;
  /** Canonical network text (`10.0.0.0/8`, `2001:db8::1`); PostgreSQL stores it as cidr. */
  network: string;
  /** The form the admin wrote, kept for display. */
  display: string;
}

/** Upserts the networks; returns the stored state of each (new or updated). */
export async function upsertIpBans(db: Queryable, bans: NewIpBan[], attributes: BanAttributes): Promise<IpBan[]> {
  if (bans.length === 0) return [];
  const { rows } = await db.query<IpBan>(
    `INSERT INTO ip_bans AS b (id, network, display, reason, expires_at, created_by)
     SELECT id, network, display, $4, $5, $6 FROM unnest($1::bigint[], $2::cidr[], $3::text[]) AS v(id, network, display)
     ON CONFLICT (network) DO UPDATE SET
       reason = EXCLUDED.reason,
       expires_at = EXCLUDED.expires_at,
       display = ${RESTART('b')} THEN EXCLUDED.display ELSE b.display END,
       created_by = ${RESTART('b')} THEN EXCLUDED.created_by ELSE b.created_by END,
       created_at = ${RESTART('b')} THEN now() ELSE b.created_at END
     RETURNING id, network::text AS network, display, ${COMMON}`,
    [
      bans.map((ban) => ban.id),
      bans.map((ban) => ban.network),
      bans.map((ban) => ban.display),
      attributes.reason,
      attributes.expiresAt,
      attributes.createdBy,
    ],
  );
  return rows;
}

/** Deletes the bans on exactly these networks; returns the `cidr` text of those that existed. */
export async function deleteIpBans(db: Queryable, networks: string[]): Promise<string[]> {
  if (networks.length === 0) return [];
  const { rows } = await db.query<{ network: string }>(
    'DELETE FROM ip_bans WHERE network = ANY($1::cidr[]) RETURNING network::text AS network',
    [networks],
  );
  return rows.map((row) => row.network);
}

/** Newest first (created_at, then id, descending), starting after `after` (key = id). */
export async function listIpBans(db: Queryable, query: BanListQuery): Promise<IpBan[]> {
  const { rows } = await db.query<IpBan>(
    `SELECT id, network::text AS network, display, ${COMMON} FROM ip_bans
     WHERE ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::bigint))
       AND ($4 OR ${LIVE})
       AND ($5::text IS NULL OR network::text ILIKE $5 OR display ILIKE $5)
     ORDER BY created_at DESC, id DESC
     LIMIT $1`,
    listParameters(query),
  );
  return rows;
}

/** Per network (its `cidr` text): tokens revoked whose last address it covers. */
export interface RevokedTokens {
  /** Distinct tokens deleted (a token inside two overlapping networks counts once here). */
  total: number;
  byNetwork: Map<string, number>;
}

/**
 * Retroactive IP bans: deletes every user token last seen from inside any of `networks`, in
 * one statement (a join on the GiST index of last_seen_ip, one probe per network).
 */
export async function revokeUserTokensInNetworks(db: Queryable, networks: string[]): Promise<RevokedTokens> {
  if (networks.length === 0) return { total: 0, byNetwork: new Map() };
  const { rows } = await db.query<{ network: string; revoked: number; total: number }>(
    `WITH nets AS (SELECT DISTINCT unnest($1::cidr[]) AS network),
     revoked AS (
       DELETE FROM user_tokens t USING nets WHERE t.last_seen_ip <<= nets.network
       RETURNING t.last_seen_ip
     )
     SELECT nets.network::text AS network, count(r.last_seen_ip)::int AS revoked,
       (SELECT count(*) FROM revoked)::int AS total
     FROM nets LEFT JOIN revoked r ON r.last_seen_ip <<= nets.network
     GROUP BY nets.network`,
    [networks],
  );
  return { total: rows[0]?.total ?? 0, byNetwork: new Map(rows.map((row) => [row.network, row.revoked])) };
}
