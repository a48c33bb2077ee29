import type { BulkOperationResult } from '@switchboard/contracts';
import type { Queryable } from '../pool.ts';

/** What finishBulkAdd needs beyond the operation's row. */
export interface BulkAddFinish {
  operationId: string;
  /** Requested ids that are no users: lockBulkAddUsers, in the same transaction. */
  unknownUsers: readonly string[];
  /** Guilds one user may be in; a user at the cap is not added (MAX_GUILDS). */
  maxGuildsPerUser: number;
  /** Id of the operation's one audit entry. */
  auditLogId: string;
}

/** PostgreSQL's check_violation: a concurrent add took the guild's last member slots. */
export const MEMBER_CAP_RACE = '23514';

/*
 * A bulk add is two statements in one transaction, both reading the request (`{guild_id,
 * user_ids}`) from the bulk_operations row, so the worker sends ids, not 1000-id arrays, and
 * builds nothing per user:
 *
 * 1. lockBulkAddUsers locks the requested users (in id order, so concurrent adds cannot
 *    deadlock), answering the ids that are no users. Adds of the same user wait for each other
 *    here, so the second one counts that user's guilds after the first committed and none
 *    passes the guild cap on a stale count.
 * 2. finishBulkAdd adds everyone who is a user, not yet a member, under the guild cap, and fits
 *    in the guild's free member slots (in request order) with one INSERT … SELECT … ON CONFLICT
 *    DO NOTHING, and in the same statement writes the one audit entry and the completed row
 *    with its `{successful, failed}`, which it returns.
 *
 * Every lookup is an index probe per requested user, so the cost follows the request, not the
 * size of the users or members tables (a join or `= ANY(…)` gets whole-table scans when the
 * statistics lag behind a table's growth); the first statement turns JIT off for the
 * transaction (set_config(…, true) is SET LOCAL without a round trip of its own), as the
 * probes are estimated far above jit_above_cost while statistics lag and compiling them takes
 * longer than running them. Both statements are named (prepared once per connection).
 *
 * The guild row is not held for the statements: adds to one guild insert in parallel and meet
 * at the members trigger, whose UPDATE fails with MEMBER_CAP_RACE (the guilds CHECK) when a
 * concurrent add took the slots this one counted on; the caller retries the transaction.
 */

export async function lockBulkAddUsers(db: Queryable, operationId: string): Promise<string[]> {
  const { rows } = await db.query<{ unknownUsers: string[] }>({
    name: 'bulk-add-lock-users',
    text: `SELECT
       set_config('jit', 'off', true) AS "jit",
       ARRAY(
         SELECT r.id::text FROM (
           SELECT DISTINCT requested.id::bigint AS id
           FROM bulk_operations o, jsonb_array_elements_text(o.request->'user_ids') AS requested (id)
           WHERE o.id = $1
           ORDER BY 1
         ) r
         LEFT JOIN LATERAL (SELECT true AS found FROM users u WHERE u.id = r.id FOR NO KEY UPDATE) locked ON true
         WHERE locked.found IS NULL
       ) AS "unknownUsers"`,
    values: [operationId],
  });
  return rows[0]!.unknownUsers;
}

/**
 * Outcomes, in request order with duplicates once: every user fails with UNKNOWN_GUILD when
 * there is no such guild; otherwise UNKNOWN_USER, existing members successful, MAX_GUILDS for a
 * user at the cap, successful when added, and MAX_GUILD_MEMBERS for those past the free slots.
 */
export async function finishBulkAdd(db: Queryable, finish: BulkAddFinish): Promise<BulkOperationResult> {
  const { rows } = await db.query<{ result: BulkOperationResult }>({
    name: 'bulk-add-finish',
    text: `WITH operation AS (
       SELECT request, requested_by, requested_by_key_id, audit_log_reason, (request->>'guild_id')::bigint AS guild_id
       FROM bulk_operations WHERE id = $1
     ), requested AS (
       SELECT r.id::bigint AS uid, min(r.ord) AS ord
       FROM operation, jsonb_array_elements_text(operation.request->'user_ids') WITH ORDINALITY AS r (id, ord)
       GROUP BY 1
     ), guild AS (
       SELECT greatest(max_members - member_count, 0) AS free_slots FROM guilds WHERE id = (SELECT guild_id FROM operation)
     ), probed AS (
       SELECT r.uid, r.ord,
         r.uid IN (SELECT unnest($2::bigint[])) AS unknown,
         coalesce(g.member, false) AS member,
         g.guilds >= $3 AS at_cap
       FROM requested r
       CROSS JOIN LATERAL (
         SELECT bool_or(m.guild_id = (SELECT guild_id FROM operation)) AS member, count(*) AS guilds
         FROM members m WHERE m.user_id = r.uid
       ) g
     ), admitted AS (
       SELECT uid FROM probed WHERE NOT unknown AND NOT member AND NOT at_cap
       ORDER BY ord
       LIMIT (SELECT coalesce((SELECT free_slots FROM guild), 0))
     ), inserted AS (
       INSERT INTO members (guild_id, user_id) SELECT (SELECT guild_id FROM operation), uid FROM admitted
       ON CONFLICT (guild_id, user_id) DO NOTHING
     ), outcomes AS MATERIALIZED (
       SELECT uid, ord, CASE
           WHEN NOT EXISTS (SELECT 1 FROM guild) THEN 'UNKNOWN_GUILD'
           WHEN unknown THEN 'UNKNOWN_USER'
           WHEN member THEN NULL
           WHEN at_cap THEN 'MAX_GUILDS'
           WHEN uid IN (SELECT uid FROM admitted) THEN NULL
           ELSE 'MAX_GUILD_MEMBERS'
         END AS error
       FROM probed
     ), result AS (
       SELECT
         json_build_object(
           'successful', coalesce(json_agg(uid::text ORDER BY ord) FILTER (WHERE error IS NULL), '[]'),
           'failed', coalesce(json_agg(json_build_object('id', uid::text, 'error', error) ORDER BY ord) FILTER (WHERE error IS NOT NULL), '[]')
         ) AS body,
         count(*) FILTER (WHERE error IS NULL) AS successful_count,
         count(*) FILTER (WHERE error IS NOT NULL) AS failed_count
       FROM outcomes
     ), audit AS (
       INSERT INTO audit_logs (id, admin_user_id, target_type, target_id, action, audit_log_reason, metadata, api_key_id)
       SELECT $4, o.requested_by, 'guild', o.guild_id::text, 'bulk_add_guild_members', o.audit_log_reason,
         jsonb_build_object(
           'user_count', jsonb_array_length(o.request->'user_ids')::text,
           'successful_count', r.successful_count::text,
           'failed_count', r.failed_count::text
         ),
         o.requested_by_key_id
       FROM operation o, result r
     ), completed AS (
       UPDATE bulk_operations SET status = 'completed', result = (SELECT body FROM result)::jsonb, completed_at = now(), error = NULL
       WHERE id = $1 AND status IN ('queued', 'running')
     )
     SELECT body AS "result" FROM result`,
    values: [finish.operationId, finish.unknownUsers, finish.maxGuildsPerUser, finish.auditLogId],
  });
  return rows[0]!.result;
}
