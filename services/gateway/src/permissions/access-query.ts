import type { Queryable } from '@switchboard/db';
import type { MemberOverwrites } from './compute.ts';

/** What a permission check can start from: the guild itself, or a resource inside one. */
export type AccessSubject = 'guild' | 'channel' | 'webhook';

/**
 * The subject's guild id (null for a DM channel) and the channel whose overwrites apply (null
 * for a guild); no row when the subject does not exist.
 */
const SUBJECT: Record<AccessSubject, string> = {
  guild: 'SELECT id AS guild_id, NULL::bigint AS channel_id FROM guilds WHERE id = $1',
  channel: 'SELECT guild_id, id AS channel_id FROM channels WHERE id = $1',
  webhook: 'SELECT guild_id, channel_id FROM webhooks WHERE id = $1',
};

export interface GuildAccessRow {
  /** Null when the subject is outside any guild (a DM channel). */
  guildId: string | null;
  isOwner: boolean;
  isMember: boolean;
  /** OR of the @everyone role (id = guild id) and the member's roles, as a decimal string. */
  rolePermissions: string;
  /** The channel's overwrites for @everyone, the member's roles (OR-ed) and the member. */
  overwrites: MemberOverwrites;
}

interface Row extends Omit<GuildAccessRow, 'overwrites'> {
  /** allow/deny of @everyone, roles, member, as decimal strings, in that order. */
  overwriteBits: [string, string, string, string, string, string];
}

/**
 * Resolves a subject to its guild and computes the caller's standing there in one statement:
 * ownership, membership, the OR of their roles' permissions (set-based, via bit_or) and the
 * overwrites of the subject's channel that concern them. Null when the subject does not exist.
 */
export async function findGuildAccess(
  db: Queryable,
  subject: AccessSubject,
  subjectId: string,
  userId: string,
): Promise<GuildAccessRow | null> {
  const { rows } = await db.query<Row>(
    `WITH subject AS (${SUBJECT[subject]})
     SELECT s.guild_id::text AS "guildId",
            coalesce(g.owner_id = $2, false) AS "isOwner",
            m.user_id IS NOT NULL AS "isMember",
            (SELECT coalesce(bit_or(r.permissions), 0) FROM roles r
             WHERE r.guild_id = s.guild_id AND (r.id = s.guild_id OR r.id = ANY (m.role_ids)))::text AS "rolePermissions",
            (SELECT ARRAY[
                coalesce(bit_or(o.allow) FILTER (WHERE o.type = 0 AND o.target_id = s.guild_id), 0),
                coalesce(bit_or(o.deny) FILTER (WHERE o.type = 0 AND o.target_id = s.guild_id), 0),
                coalesce(bit_or(o.allow) FILTER (WHERE o.type = 0 AND o.target_id = ANY (m.role_ids)), 0),
                coalesce(bit_or(o.deny) FILTER (WHERE o.type = 0 AND o.target_id = ANY (m.role_ids)), 0),
                coalesce(bit_or(o.allow) FILTER (WHERE o.type = 1 AND o.target_id = $2), 0),
                coalesce(bit_or(o.deny) FILTER (WHERE o.type = 1 AND o.target_id = $2), 0)
              ]::text[]
             FROM channel_permission_overwrites o WHERE o.channel_id = s.channel_id) AS "overwriteBits"
     FROM subject s
     LEFT JOIN guilds g ON g.id = s.guild_id
     LEFT JOIN members m ON m.guild_id = s.guild_id AND m.user_id = $2`,
    [subjectId, userId],
  );
  const row = rows[0];
  if (row === undefined) return null;
  const [everyoneAllow, everyoneDeny, rolesAllow, rolesDeny, memberAllow, memberDeny] = row.overwriteBits.map(BigInt);
  const { overwriteBits: _, ...rest } = row;
  return {
    ...rest,
    overwrites: {
      everyone: { allow: everyoneAllow!, deny: everyoneDeny! },
      roles: { allow: rolesAllow!, deny: rolesDeny! },
      member: { allow: memberAllow!, deny: memberDeny! },
    },
  };
}
