import type { Queryable } from '../pool.ts';

export interface User {
  id: string;
  username: string;
  discriminator: number;
  globalName: string | null;
  avatarHash: string | null;
  bannerHash: string | null;
  email: string | null;
  phone: string | null;
  /** A 64-bit field, kept as a decimal string like every int8. */
  flags: string;
  bot: boolean;
  system: boolean;
  createdAt: Date;
}

export interface NewUser {
  id: string;
  username: string;
  discriminator?: number;
  globalName?: string | null;
  avatarHash?: string | null;
  email?: string | null;
  phone?: string | null;
  bot?: boolean;
}

const COLUMNS = `id, username, discriminator, global_name AS "globalName", avatar_hash AS "avatarHash",
  banner_hash AS "bannerHash", email, phone, flags, bot, system, created_at AS "createdAt"`;

/** Inserts many users in one statement (arrays unnested server-side); returns the count. */
export async function insertUsers(db: Queryable, users: NewUser[]): Promise<number> {
  if (users.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO users (id, username, discriminator, global_name, avatar_hash, email, phone, bot)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::smallint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[])`,
    [
      users.map((u) => u.id),
      users.map((u) => u.username),
      users.map((u) => u.discriminator ?? 0),
      users.map((u) => u.globalName ?? null),
      users.map((u) => u.avatarHash ?? null),
      users.map((u) => u.email ?? null),
      users.map((u) => u.phone ?? null),
      users.map((u) => u.bot ?? false),
    ],
  );
  return result.rowCount ?? 0;
}

export async function findUserById(db: Queryable, id: string): Promise<User | null> {
  const { rows } = await db.query<User>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** The users among `ids` that exist, in no particular order. */
export async function findUsersByIds(db: Queryable, ids: string[]): Promise<User[]> {
  const { rows } = await db.query<User>(`SELECT ${COLUMNS} FROM users WHERE id = ANY($1::bigint[])`, [ids]);
  return rows;
}
