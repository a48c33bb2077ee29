import type { Queryable } from '../pool.ts';

/**
 * The reads behind the gateway's in-memory IP-ban enforcement index. Bans whose `expires_at`
 * has passed are left out, as every ban reader does.
 */

/** The ip_bans change counter (migration 0006): a decimal string, as int8 comes back. */
export async function readIpBanVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ version: string }>('SELECT version FROM ip_bans_version');
  const version = rows[0]?.version;
  if (version === undefined) throw new Error('ip_bans_version has no row');
  return version;
}

/**
 * One page of live bans packed by PostgreSQL into a single value: a row object and a few
 * strings per ban (what a plain SELECT gives) cost more to parse and collect than everything
 * else in a load together. `records` holds, per ban in network order: the network in inet's
 * binary form (family, prefix, is-cidr, address length, address bytes), expires_at and
 * created_at as float8 epoch milliseconds (expires_at Infinity: never), and an int4 naming
 * its reason: 0 for none, else a 1-based position in `reasons` (each distinct text once).
 */
export interface IpBanPage {
  count: number;
  /** The page's last network (`cidr` text): the next page starts after it. */
  last: string | null;
  reasons: string[];
  records: Buffer;
}

/** Bytes of the fields after the network in each record. */
export const RECORD_TAIL_BYTES = 8 + 8 + 4;

/**
 * The live bans after `afterNetwork` (null: from the start), at most `limit`, in network order
 * (the unique index's order, which is address order: the index build then only copies).
 * Keyset on the column, not its text, which sorts 10.0.0.10 before 10.0.0.9.
 */
export async function readIpBanPage(db: Queryable, afterNetwork: string | null, limit: number): Promise<IpBanPage> {
  const { rows } = await db.query<{
    count: number;
    last: string | null;
    reasons: string[] | null;
    records: Buffer | null;
  }>(
    `WITH page AS (
       SELECT network, reason, expires_at, created_at FROM ip_bans
       WHERE ($1::cidr IS NULL OR network > $1::cidr) AND (expires_at IS NULL OR expires_at > now())
       ORDER BY network
       LIMIT $2
     ), reasons AS (
       SELECT reason, row_number() OVER (ORDER BY reason)::int4 AS id
       FROM (SELECT DISTINCT reason FROM page WHERE reason IS NOT NULL) AS texts
     )
     SELECT count(*)::int AS count,
       max(page.network)::text AS last,
       (SELECT array_agg(reason ORDER BY id) FROM reasons) AS reasons,
       string_agg(
         inet_send(page.network)
           || float8send(coalesce((extract(epoch FROM page.expires_at) * 1000)::float8, 'Infinity'))
           || float8send((extract(epoch FROM page.created_at) * 1000)::float8)
           || int4send(coalesce(reasons.id, 0)),
         ''::bytea ORDER BY page.network) AS records
     FROM page LEFT JOIN reasons USING (reason)`,
    [afterNetwork, limit],
  );
  const row = rows[0]!;
  return { count: row.count, last: row.last, reasons: row.reasons ?? [], records: row.records ?? Buffer.alloc(0) };
}
