import { bulkAddRequestSchema, type BULK_ADD_ERRORS, type BulkOperationResult } from '@switchboard/contracts';
import { addGuildMembersInBulk, completeOperationWithAudit, type BulkAddMembersOutcome, MEMBER_CAP_RACE, withTransaction, type Operation, type Pool } from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';

/** Users per statement: a request of the maximum size is one statement. */
const CHUNK_SIZE = 1000;
/** Retries after losing a race for a guild's last member slots (each sees the newer count). */
const CAP_RACE_RETRIES = 10;

/** The pool, ids for the audit entry, and the guild cap of a user (BULK_MAX_GUILDS_PER_USER). */
export type AddMembersDeps = { pool: Pool; ids: SnowflakeGenerator; maxGuildsPerUser: number };

/**
 * One bulk add (reference §8, decisions §8), best effort per user: duplicates are reported
 * once, existing members count as successful, and every other user gets UNKNOWN_USER,
 * UNKNOWN_GUILD, MAX_GUILDS or MAX_GUILD_MEMBERS. The members, the one audit entry and the
 * completed row with its result commit in one transaction, so a retry either redoes all of
 * it or finds the row completed and returns the stored result (operationJob).
 */
export function addMembersRunner(deps: AddMembersDeps): (operation: Operation) => Promise<BulkOperationResult> {
  const once = addOnce(deps);
  return async (operation) => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await once(operation);
      } catch (error) {
        if ((error as { code?: unknown }).code !== MEMBER_CAP_RACE || attempt >= CAP_RACE_RETRIES) throw error;
      }
    }
  };
}

/** One try, in one transaction (rolled back whole when it loses a member-cap race). */
function addOnce({ pool, ids, maxGuildsPerUser }: AddMembersDeps): (operation: Operation) => Promise<BulkOperationResult> {
  return (operation) =>
    withTransaction(pool, async (client) => {
      const request = bulkAddRequestSchema.parse(operation.request);
      const userIds = [...new Set(request.user_ids)];
      const result: BulkOperationResult = { successful: [], failed: [] };
      for (let start = 0; start < userIds.length; start += CHUNK_SIZE) {
        const chunk = userIds.slice(start, start + CHUNK_SIZE);
        const outcome = await addGuildMembersInBulk(client, request.guild_id, chunk, maxGuildsPerUser);
        const errors = failuresOf(outcome);
        for (const id of chunk) {
          const error = outcome.guildFound ? errors.get(id) : 'UNKNOWN_GUILD';
          if (error) result.failed.push({ id, error });
          else result.successful.push(id);
        }
      }
      await completeOperationWithAudit(client, 'bulk_operations', operation.id, result, {
        id: ids.next(),
        adminUserId: operation.requestedBy,
        reason: operation.auditLogReason,
        targetType: 'guild',
        targetId: request.guild_id,
        action: 'bulk_add_guild_members',
        metadata: {
          user_count: String(request.user_ids.length),
          successful_count: String(result.successful.length),
          failed_count: String(result.failed.length),
        },
      });
      return result;
    });
}

type BulkAddError = (typeof BULK_ADD_ERRORS)[number];

/** The error of each user the add left out; everyone else requested is a member now. */
function failuresOf(outcome: BulkAddMembersOutcome): Map<string, BulkAddError> {
  const errors = new Map<string, BulkAddError>();
  for (const id of outcome.unknownUsers) errors.set(id, 'UNKNOWN_USER');
  for (const id of outcome.atGuildCap) errors.set(id, 'MAX_GUILDS');
  for (const id of outcome.overMemberCap) errors.set(id, 'MAX_GUILD_MEMBERS');
  return errors;
}
