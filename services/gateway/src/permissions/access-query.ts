import type { Queryable } from '@switchboard/db';

/** What a permission check can start from: the guild itself, or a resource inside one. */
export type AccessSubject = 'guild' | 'channel' | 'webhook';

/** The subject's guild id (null for a DM channel); no row when the subject does not exist. */
const SUBJECT_GUILD: Record<AccessSubject, string> = {
  guild: 'SELECT id AS guild_id FROM guilds WHERE id = $1',
  channel: 'SELECT guild_id FROM channels WHERE id = $1',
  webhook: 'SELECT guild_id FROM webhooks WHERE id = $1',
};

export interface GuildAccessRow {
  /** Null when the subject is outside any guild (a DM channel). */
  guildId: string | null;
  isOwner: boolean;
  isMember: boolean;
  /** OR of the @everyone role (id = guild id) and the member's roles, as a decimal string. */
  rolePermissions: string;
}

/**
 * Resolves a subject to its guild and computes the caller's standing there in one statement:
 * ownership, membership and the OR of their roles' permissions (set-based, via bit_or).
 * Null when the subject does not exist.
 */
export async function findGuildAccess(
  db: Queryable,
  subject: AccessSubject,
  subjectId: string,
  userId: string,
): Promise<GuildAccessRow | null> {
  const { rows } = await db.query<GuildAccessRow>(
    `WITH subject AS (${SUBJECT_GUILD[subject]})
     SELECT s.guild_id::text AS "guildId",
            coalesce(g.owner_id = $2, false) AS "isOwner",
            m.user_id IS NOT NULL AS "isMember",
            (SELECT coalesce(bit_or(r.permissions), 0) FROM roles r
             WHERE r.guild_id = s.guild_id AND (r.id = s.guild_id OR r.id = ANY (m.role_ids)))::text AS "rolePermissions"
     FROM subject s
     LEFT JOIN guilds g ON g.id = s.guild_id
     LEFT JOIN members m ON m.guild_id = s.guild_id AND m.user_id = $2`,
    [subjectId, userId],
  );
  return rows[0] ?? null;
}
