import type { Queryable } from '../pool.ts';

export type UserTokenKind = 'user' | 'bot';

/** A stored user or bot token: only the SHA-256 of the token (see @switchboard/auth). */
export interface UserToken {
  tokenHash: Buffer;
  userId: string;
  kind: UserTokenKind;
  createdAt: Date;
  lastSeenIp: string | null;
  lastSeenAt: Date | null;
}

const COLUMNS = `token_hash AS "tokenHash", user_id AS "userId", kind, created_at AS "createdAt",
  host(last_seen_ip) AS "lastSeenIp", last_seen_at AS "lastSeenAt"`;

export async function insertUserTokens(
  db: Queryable,
  tokens: Array<{ tokenHash: Buffer; userId: string; kind: UserTokenKind }>,
): Promise<number> {
  if (tokens.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO user_tokens (token_hash, user_id, kind)
     SELECT * FROM unnest($1::bytea[], $2::bigint[], $3::text[])`,
    [tokens.map((t) => t.tokenHash), tokens.map((t) => t.userId), tokens.map((t) => t.kind)],
  );
  return result.rowCount ?? 0;
}

export async function findUserTokenByHash(db: Queryable, tokenHash: Buffer): Promise<UserToken | null> {
  const { rows } = await db.query<UserToken>(`SELECT ${COLUMNS} FROM user_tokens WHERE token_hash = $1`, [tokenHash]);
  return rows[0] ?? null;
}

/**
 * Records where a token was last used from, at most once a minute unless the address
 * changed, so retroactive IP bans see current addresses without a write per request.
 */
export async function recordUserTokenSeen(db: Queryable, tokenHash: Buffer, ip: string): Promise<void> {
  await db.query(
    `UPDATE user_tokens SET last_seen_ip = $2::inet, last_seen_at = now()
     WHERE token_hash = $1
       AND (last_seen_at IS NULL OR last_seen_at <= now() - interval '1 minute' OR last_seen_ip IS DISTINCT FROM $2::inet)`,
    [tokenHash, ip],
  );
}

/** Revokes (deletes) every token last seen from inside `network` (an address or CIDR). */
export async function revokeUserTokensInNetwork(db: Queryable, network: string): Promise<number> {
  const result = await db.query('DELETE FROM user_tokens WHERE last_seen_ip <<= $1::cidr', [network]);
  return result.rowCount ?? 0;
}
