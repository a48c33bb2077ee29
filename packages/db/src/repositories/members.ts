import type { Queryable } from '../pool.ts';

export interface Member {
  guildId: string;
  userId: string;
  /** Never includes the @everyone role, which every member has. */
  roleIds: string[];
  nick: string | null;
  joinedAt: Date;
}

export interface NewMember {
  userId: string;
  roleIds?: string[];
  nick?: string | null;
}

const COLUMNS = `guild_id AS "guildId", user_id AS "userId", role_ids::text[] AS "roleIds", nick, joined_at AS "joinedAt"`;

/**
 * Adds members to a guild in one statement; existing members are left as they are. Returns
 * the ids actually added. guilds.member_count follows through a statement-level trigger.
 */
export async function insertMembers(db: Queryable, guildId: string, members: NewMember[]): Promise<string[]> {
  if (members.length === 0) return [];
  // role_ids travel as array literals ('{1,2}') because unnest cannot yield arrays of arrays.
  const { rows } = await db.query<{ userId: string }>(
    `INSERT INTO members (guild_id, user_id, role_ids, nick)
     SELECT $1, m.user_id, m.role_ids::bigint[], m.nick
     FROM unnest($2::bigint[], $3::text[], $4::text[]) AS m (user_id, role_ids, nick)
     ON CONFLICT (guild_id, user_id) DO NOTHING
     RETURNING user_id AS "userId"`,
    [
      guildId,
      members.map((m) => m.userId),
      members.map((m) => `{${(m.roleIds ?? []).join(',')}}`),
      members.map((m) => m.nick ?? null),
    ],
  );
  return rows.map((row) => row.userId);
}

export async function findMember(db: Queryable, guildId: string, userId: string): Promise<Member | null> {
  const { rows } = await db.query<Member>(`SELECT ${COLUMNS} FROM members WHERE guild_id = $1 AND user_id = $2`, [
    guildId,
    userId,
  ]);
  return rows[0] ?? null;
}
