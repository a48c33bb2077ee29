import type { Queryable } from '../pool.ts';

/**
 * How one bulk add went, as the requested users it did not make members.
 * Every other requested user is a member of the guild now: added, or one already.
 */
export interface BulkAddMembersOutcome {
  guildFound: boolean;
  /** Requested ids that are no users. */
  unknownUsers: string[];
  /** Users at their guild cap (and not members already). */
  atGuildCap: string[];
  /** Users left out because the guild had no free member slot left for them. */
  overMemberCap: string[];
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
 *
 * Every lookup is one index probe per requested user, so the cost follows the request, not
 * the size of the users or members tables (a join or `= ANY(…)` gets whole-table scans when
 * the statistics lag behind a table's growth). Both statements are named (prepared once per
 * connection): parsing and planning them took a good part of their run time.
 */
export async function addGuildMembersInBulk(
  db: Queryable,
  guildId: string,
  userIds: readonly string[],
  maxGuildsPerUser: number,
): Promise<BulkAddMembersOutcome> {
  const { guildFound, unknownUsers } = await lockUsers(db, guildId, userIds);
  if (!guildFound) return { guildFound, unknownUsers: [], atGuildCap: [], overMemberCap: [] };
  const unknown = new Set(unknownUsers);
  const knownUsers = unknown.size === 0 ? userIds : userIds.filter((id) => !unknown.has(id));
  const { rows } = await db.query<Pick<BulkAddMembersOutcome, 'atGuildCap' | 'overMemberCap'>>({
    name: 'bulk-add-guild-members',
    text: `WITH probed AS (
       SELECT r.uid, r.ord,
         coalesce(g.member, false) AS member,
         g.guilds >= $3 AS at_cap
       FROM unnest($2::bigint[]) WITH ORDINALITY AS r (uid, ord)
       CROSS JOIN LATERAL (
         SELECT bool_or(m.guild_id = $1) AS member, count(*) AS guilds FROM members m WHERE m.user_id = r.uid
       ) g
     ), admitted AS (
       SELECT uid FROM probed WHERE NOT member AND NOT at_cap
       ORDER BY ord
       LIMIT (SELECT greatest(max_members - member_count, 0) FROM guilds WHERE id = $1)
     ), inserted AS (
       INSERT INTO members (guild_id, user_id) SELECT $1, uid FROM admitted
       ON CONFLICT (guild_id, user_id) DO NOTHING
     )
     SELECT
       ARRAY(SELECT uid::text FROM probed WHERE NOT member AND at_cap ORDER BY ord) AS "atGuildCap",
       ARRAY(
         SELECT uid::text FROM probed
         WHERE NOT member AND NOT at_cap AND uid NOT IN (SELECT uid FROM admitted)
         ORDER BY ord
       ) AS "overMemberCap"`,
    values: [guildId, knownUsers, maxGuildsPerUser],
  });
  return { guildFound: true, unknownUsers, ...rows[0]! };
}

/**
 * Whether the guild exists, and locks the users among `userIds` in id order (one primary-key
 * probe each, for the same reason as above), answering the ids that are no users. It also
 * turns JIT off for the rest of the transaction (set_config(…, true) is SET LOCAL without a
 * round trip of its own): the insert's per-user probes are estimated far above
 * jit_above_cost while statistics lag, and compiling them takes longer (tens of
 * milliseconds) than running them.
 */
async function lockUsers(
  db: Queryable,
  guildId: string,
  userIds: readonly string[],
): Promise<Pick<BulkAddMembersOutcome, 'guildFound' | 'unknownUsers'>> {
  const { rows } = await db.query<Pick<BulkAddMembersOutcome, 'guildFound' | 'unknownUsers'>>({
    name: 'bulk-add-lock-users',
    text: `SELECT
       set_config('jit', 'off', true) AS "jit",
       EXISTS (SELECT 1 FROM guilds WHERE id = $1) AS "guildFound",
       ARRAY(
         SELECT r.id::text FROM (SELECT id FROM unnest($2::bigint[]) AS r (id) ORDER BY id) r
         LEFT JOIN LATERAL (SELECT true AS found FROM users u WHERE u.id = r.id FOR NO KEY UPDATE) locked ON true
         WHERE locked.found IS NULL
       ) AS "unknownUsers"`,
    values: [guildId, userIds],
  });
  const { guildFound, unknownUsers } = rows[0]!;
  return { guildFound, unknownUsers };
}
