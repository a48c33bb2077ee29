import type { Queryable } from '../pool.ts';

export interface AdminUser {
  id: string;
  name: string;
  acls: string[];
  createdAt: Date;
}

const COLUMNS = 'id, name, acls, created_at AS "createdAt"';

export async function insertAdminUser(
  db: Queryable,
  admin: { id: string; name: string; acls: string[] },
): Promise<AdminUser> {
  const { rows } = await db.query<AdminUser>(
    `INSERT INTO admin_users (id, name, acls) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
    [admin.id, admin.name, dedupe(admin.acls)],
  );
  return rows[0]!;
}

/**
 * Creates the admin named `name`, or reuses it and adds `acls` to what it already holds
 * (never removes any: other keys of the admin keep working). `created` tells which.
 */
export async function upsertAdminUserByName(
  db: Queryable,
  admin: { id: string; name: string; acls: string[] },
): Promise<AdminUser & { created: boolean }> {
  const { rows } = await db.query<AdminUser & { created: boolean }>(
    `INSERT INTO admin_users AS a (id, name, acls) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE
       SET acls = ARRAY(SELECT DISTINCT acl FROM unnest(a.acls || EXCLUDED.acls) AS acl ORDER BY acl)
     RETURNING id, name, acls, created_at AS "createdAt", (xmax = 0) AS created`,
    [admin.id, admin.name, dedupe(admin.acls)],
  );
  return rows[0]!;
}

export async function findAdminUserById(db: Queryable, id: string): Promise<AdminUser | null> {
  const { rows } = await db.query<AdminUser>(`SELECT ${COLUMNS} FROM admin_users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function findAdminUserByName(db: Queryable, name: string): Promise<AdminUser | null> {
  const { rows } = await db.query<AdminUser>(`SELECT ${COLUMNS} FROM admin_users WHERE name = $1`, [name]);
  return rows[0] ?? null;
}

/** Sorted and without repeats: ACLs are a set. */
function dedupe(acls: string[]): string[] {
  return [...new Set(acls)].sort();
}
