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

/** PostgreSQL's check_violation: a concurrent add took the guild's last member slots. */
export const MEMBER_CAP_RACE = '23514';

/**
 * Adds `userIds` (distinct, in request order) to a guild in one INSERT … SELECT, with both
 * limits decided inside the statement: a user in `maxGuildsPerUser` guilds is not added, and
 * at most the guild's free member slots are filled, in request order. Must run in a
 * transaction. The users are locked first (in id order, so concurrent adds cannot deadlock):
 * adds of the same user wait for each other, so none passes the guild cap on a stale count.
 * The guild row is not held for the statement: adds to one guild insert in parallel and meet
 * at the members trigger, whose UPDATE fails with MEMBER_CAP_RACE (the guilds CHECK) when a
 * concurrent add took the slots this one counted on; the caller retries with fresh counts.
 */
export async function addGuildMembersInBulk(
  db: Queryable,
  guildId: string,
  userIds: readonly string[],
  maxGuildsPerUser: number,
): Promise<BulkAddMembersOutcome> {
  const guild = await db.query('SELECT 1 FROM guilds WHERE id = $1', [guildId]);
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
