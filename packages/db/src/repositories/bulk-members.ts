import type { Queryable } from '../pool.ts';

/** How each requested user fared in one bulk add, as sets of ids. */
export interface BulkAddMembersOutcome {
  guildFound: boolean;
  /** Requested ids that are users. */
  knownUsers: string[];
  /** Already members before this statement (they count as successful). */
  alreadyMembers: string[];
  /** Users at their guild cap (and not already members). */
  atGuildCap: string[];
  /** Inserted by this statement. */
  added: string[];
}

/**
 * Adds `userIds` (distinct, in request order) to a guild in one INSERT … SELECT, with both
 * limits decided inside the statement: a user in `maxGuildsPerUser` guilds is not added, and
 * at most the guild's free member slots are filled, in request order. Must run in a
 * transaction: the guild row and the users are locked first (users in id order, so concurrent
 * bulk adds cannot deadlock), which makes concurrent bulk adds to the same guild or of the
 * same users wait for each other instead of both passing a limit check.
 */
export async function addGuildMembersInBulk(
  db: Queryable,
  guildId: string,
  userIds: readonly string[],
  maxGuildsPerUser: number,
): Promise<BulkAddMembersOutcome> {
  const guild = await db.query('SELECT 1 FROM guilds WHERE id = $1 FOR UPDATE', [guildId]);
  if (guild.rowCount === 0) return { guildFound: false, knownUsers: [], alreadyMembers: [], atGuildCap: [], added: [] };
  await db.query('SELECT 1 FROM users WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE', [userIds]);
  const { rows } = await db.query<Omit<BulkAddMembersOutcome, 'guildFound'>>(
    `WITH req AS (
       SELECT uid, ord FROM unnest($2::bigint[]) WITH ORDINALITY AS r (uid, ord)
     ), known AS (
       SELECT req.uid, req.ord FROM req JOIN users u ON u.id = req.uid
     ), already AS (
       SELECT user_id FROM members WHERE guild_id = $1 AND user_id = ANY($2::bigint[])
     ), guild_counts AS (
       SELECT user_id, count(*) AS n FROM members WHERE user_id = ANY($2::bigint[]) GROUP BY user_id
     ), capped AS (
       SELECT k.uid FROM known k JOIN guild_counts c ON c.user_id = k.uid
       WHERE c.n >= $3 AND k.uid NOT IN (SELECT user_id FROM already)
     ), admitted AS (
       SELECT k.uid FROM known k
       WHERE k.uid NOT IN (SELECT user_id FROM already) AND k.uid NOT IN (SELECT uid FROM capped)
       ORDER BY k.ord
       LIMIT (SELECT greatest(max_members - member_count, 0) FROM guilds WHERE id = $1)
     ), inserted AS (
       INSERT INTO members (guild_id, user_id) SELECT $1, uid FROM admitted
       ON CONFLICT (guild_id, user_id) DO NOTHING
       RETURNING user_id
     )
     SELECT
       ARRAY(SELECT uid::text FROM known) AS "knownUsers",
       ARRAY(SELECT user_id::text FROM already) AS "alreadyMembers",
       ARRAY(SELECT uid::text FROM capped) AS "atGuildCap",
       ARRAY(SELECT user_id::text FROM inserted) AS "added"`,
    [guildId, userIds, maxGuildsPerUser],
  );
  return { guildFound: true, ...rows[0]! };
}
