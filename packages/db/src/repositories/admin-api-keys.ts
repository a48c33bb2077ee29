import type { Queryable } from '../pool.ts';

/** A stored admin API key: never the key itself, only the SHA-256 of it. */
export interface AdminApiKey {
  id: string;
  adminUserId: string;
  name: string;
  keyHash: Buffer;
  acls: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

const COLUMNS = `id, admin_user_id AS "adminUserId", name, key_hash AS "keyHash", acls,
  created_at AS "createdAt", last_used_at AS "lastUsedAt", expires_at AS "expiresAt"`;

export interface NewAdminApiKey {
  id: string;
  adminUserId: string;
  name: string;
  keyHash: Buffer;
  acls: string[];
  expiresAt: Date | null;
}

export async function insertAdminApiKey(db: Queryable, key: NewAdminApiKey): Promise<AdminApiKey> {
  const { rows } = await db.query<AdminApiKey>(
    `INSERT INTO admin_api_keys (id, admin_user_id, name, key_hash, acls, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [key.id, key.adminUserId, key.name, key.keyHash, [...new Set(key.acls)].sort(), key.expiresAt],
  );
  return rows[0]!;
}

export async function findAdminApiKeyById(db: Queryable, id: string): Promise<AdminApiKey | null> {
  const { rows } = await db.query<AdminApiKey>(`SELECT ${COLUMNS} FROM admin_api_keys WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** An admin's own keys, newest first (expired ones included: callers may filter). */
export async function listAdminApiKeysByAdmin(db: Queryable, adminUserId: string): Promise<AdminApiKey[]> {
  const { rows } = await db.query<AdminApiKey>(
    `SELECT ${COLUMNS} FROM admin_api_keys WHERE admin_user_id = $1 ORDER BY id DESC`,
    [adminUserId],
  );
  return rows;
}

/** Deletes the key only if `adminUserId` owns it; false means "no such key of yours". */
export async function deleteAdminApiKey(db: Queryable, key: { id: string; adminUserId: string }): Promise<boolean> {
  const result = await db.query('DELETE FROM admin_api_keys WHERE id = $1 AND admin_user_id = $2', [
    key.id,
    key.adminUserId,
  ]);
  return result.rowCount === 1;
}

/**
 * Records a use of the key, at most once per `minIntervalSeconds` (docs/decisions.md#admin-keys: once a
 * minute), so a busy key does not turn every request into a write. True when it wrote.
 */
export async function touchAdminApiKeyLastUsed(db: Queryable, id: string, minIntervalSeconds = 60): Promise<boolean> {
  const result = await db.query(
    `UPDATE admin_api_keys SET last_used_at = now()
     WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= now() - make_interval(secs => $2))`,
    [id, minIntervalSeconds],
  );
  return result.rowCount === 1;
}

/** The key with its owner, in one round trip: what authenticating a request needs. */
export interface AdminApiKeyWithOwner {
  key: AdminApiKey;
  owner: { id: string; name: string; acls: string[]; createdAt: Date };
}

export async function findAdminApiKeyWithOwner(db: Queryable, id: string): Promise<AdminApiKeyWithOwner | null> {
  const [found] = await findAdminApiKeysWithOwners(db, [id]);
  return found ?? null;
}

/**
 * Keys with their owners for many ids in one statement (the gateway batches the keys of
 * concurrent requests); answers in the order of `ids`, null where there is no such key. Named:
 * every admin request runs it, and each connection then plans it once. The ACL arrays come as
 * JSON, which pg hands to JSON.parse: as text[] pg parses them character by character in
 * JavaScript (postgres-array), a visible share of the ban check's CPU
 * (packages/bench/README.md#credentials-and-admin-keys).
 */
export async function findAdminApiKeysWithOwners(
  db: Queryable,
  ids: readonly string[],
): Promise<Array<AdminApiKeyWithOwner | null>> {
  const { rows } = await db.query<AdminApiKey & { ownerName: string; ownerAcls: string[]; ownerCreatedAt: Date }>({
    name: 'admin-api-keys-with-owners',
    text: `SELECT k.id, k.admin_user_id AS "adminUserId", k.name, k.key_hash AS "keyHash", to_json(k.acls) AS acls,
            k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt", k.expires_at AS "expiresAt",
            a.name AS "ownerName", to_json(a.acls) AS "ownerAcls", a.created_at AS "ownerCreatedAt"
     FROM admin_api_keys k JOIN admin_users a ON a.id = k.admin_user_id
     WHERE k.id = ANY($1::bigint[])`,
    values: [ids],
  });
  const byId = new Map<string, AdminApiKeyWithOwner>();
  for (const { ownerName, ownerAcls, ownerCreatedAt, ...key } of rows) {
    byId.set(key.id, {
      key,
      owner: { id: key.adminUserId, name: ownerName, acls: ownerAcls, createdAt: ownerCreatedAt },
    });
  }
  return ids.map((id) => byId.get(id) ?? null);
}
