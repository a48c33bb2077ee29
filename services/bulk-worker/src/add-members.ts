import type { Operation } from '@switchboard/admin-operations';
import type { BulkOperationResult } from '@switchboard/contracts';
import { finishBulkAdd, lockBulkAddUsers, MEMBER_CAP_RACE, withTransaction, type Pool } from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';

/** Retries after losing a race for a guild's last member slots (each sees the newer count). */
const CAP_RACE_RETRIES = 10;

/** The pool, ids for the audit entry, and the guild cap of a user (BULK_MAX_GUILDS_PER_USER). */
export type AddMembersDeps = { pool: Pool; ids: SnowflakeGenerator; maxGuildsPerUser: number };

/**
 * One bulk add (docs/decisions.md#fluxer-bulk-add, #bulk-add-outcomes), best effort per user: duplicates are reported
 * once, existing members count as successful, and every other user gets UNKNOWN_USER,
 * UNKNOWN_GUILD, MAX_GUILDS or MAX_GUILD_MEMBERS. The members, the one audit entry and the
 * completed row with its result commit in one transaction, so a retry either redoes all of
 * it or finds the row completed and returns the stored result (operationJob). The statements
 * read the request from the operation's row (bulk-members.ts); a request of the maximum size
 * (1000 users) is one INSERT.
 */
export function addMembersRunner(deps: AddMembersDeps): (operation: Operation) => Promise<BulkOperationResult> {
  const once = addOnce(deps);
  return async (operation) => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await once(operation.id);
      } catch (error) {
        if ((error as { code?: unknown }).code !== MEMBER_CAP_RACE || attempt >= CAP_RACE_RETRIES) throw error;
      }
    }
  };
}

/** One try, in one transaction (rolled back whole when it loses a member-cap race). */
function addOnce({
  pool,
  ids,
  maxGuildsPerUser,
}: AddMembersDeps): (operationId: string) => Promise<BulkOperationResult> {
  return (operationId) =>
    withTransaction(pool, async (client) => {
      const unknownUsers = await lockBulkAddUsers(client, operationId);
      return finishBulkAdd(client, { operationId, unknownUsers, maxGuildsPerUser, auditLogId: ids.next() });
    });
}
