import type { Queryable } from '../pool.ts';

export interface Guild {
  id: string;
  name: string;
  ownerId: string;
  iconHash: string | null;
  bannerHash: string | null;
  splashHash: string | null;
  features: string[];
  memberCount: number;
  maxMembers: number;
  createdAt: Date;
}

export interface NewGuild {
  id: string;
  name: string;
  ownerId: string;
  iconHash?: string | null;
  bannerHash?: string | null;
  splashHash?: string | null;
  features?: string[];
  maxMembers?: number;
}

const COLUMNS = `id, name, owner_id AS "ownerId", icon_hash AS "iconHash", banner_hash AS "bannerHash",
  splash_hash AS "splashHash", features, member_count AS "memberCount", max_members AS "maxMembers",
  created_at AS "createdAt"`;

/** member_count starts at 0 and follows the members table (database triggers). */
export async function insertGuild(db: Queryable, guild: NewGuild): Promise<Guild> {
  const { rows } = await db.query<Guild>(
    `INSERT INTO guilds (id, name, owner_id, icon_hash, banner_hash, splash_hash, features, max_members)
     VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($8, 250000)) RETURNING ${COLUMNS}`,
    [
      guild.id,
      guild.name,
      guild.ownerId,
      guild.iconHash ?? null,
      guild.bannerHash ?? null,
      guild.splashHash ?? null,
      guild.features ?? [],
      guild.maxMembers ?? null,
    ],
  );
  return rows[0]!;
}

export async function findGuildById(db: Queryable, id: string): Promise<Guild | null> {
  const { rows } = await db.query<Guild>(`SELECT ${COLUMNS} FROM guilds WHERE id = $1`, [id]);
  return rows[0] ?? null;
}
