import type { Queryable } from '../pool.ts';

export interface Role {
  id: string;
  guildId: string;
  name: string;
  /** The permission bit field as a decimal string (int8). */
  permissions: string;
  color: number;
  position: number;
  createdAt: Date;
}

export interface NewRole {
  id: string;
  guildId: string;
  name: string;
  permissions: bigint;
  color?: number;
  position: number;
}

const COLUMNS = `id, guild_id AS "guildId", name, permissions, color, position, created_at AS "createdAt"`;

/** Inserts roles in one statement. The @everyone role's id is the guild's id. */
export async function insertRoles(db: Queryable, roles: NewRole[]): Promise<number> {
  if (roles.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO roles (id, guild_id, name, permissions, color, position)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::int[], $6::int[])`,
    [
      roles.map((r) => r.id),
      roles.map((r) => r.guildId),
      roles.map((r) => r.name),
      roles.map((r) => r.permissions.toString()),
      roles.map((r) => r.color ?? 0),
      roles.map((r) => r.position),
    ],
  );
  return result.rowCount ?? 0;
}

export async function listGuildRoles(db: Queryable, guildId: string): Promise<Role[]> {
  const { rows } = await db.query<Role>(`SELECT ${COLUMNS} FROM roles WHERE guild_id = $1 ORDER BY position, id`, [
    guildId,
  ]);
  return rows;
}
