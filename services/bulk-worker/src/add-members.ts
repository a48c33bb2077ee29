import { bulkAddRequestSchema, type BulkOperationResult } from '@switchboard/contracts';
import { addGuildMembersInBulk, completeOperation, insertAuditLogs, withTransaction, type Operation, type Pool } from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';

export interface AddMembersDeps {
  pool: Pool;
  ids: SnowflakeGenerator;
  maxGuildsPerUser: number;
}

/** Users per statement: a request of the maximum size is one statement. */
const CHUNK_SIZE = 1000;

/**
 * One bulk add (reference §8, decisions §8), best effort per user: duplicates are reported
 * once, existing members count as successful, and every other user gets UNKNOWN_USER,
 * UNKNOWN_GUILD, MAX_GUILDS or MAX_GUILD_MEMBERS. The members, the one audit entry and the
 * completed row with its result commit in one transaction, so a retry either redoes all of
 * it or finds the row completed and returns the stored result (operationJob).
 */
export function addMembersRunner({ pool, ids, maxGuildsPerUser }: AddMembersDeps): (operation: Operation) => Promise<BulkOperationResult> {
  return (operation) =>
    withTransaction(pool, async (client) => {
      const request = bulkAddRequestSchema.parse(operation.request);
      const userIds = [...new Set(request.user_ids)];
      const result: BulkOperationResult = { successful: [], failed: [] };
      for (let start = 0; start < userIds.length; start += CHUNK_SIZE) {
        const chunk = userIds.slice(start, start + CHUNK_SIZE);
        const outcome = await addGuildMembersInBulk(client, request.guild_id, chunk, maxGuildsPerUser);
        const known = new Set(outcome.knownUsers);
        const joined = new Set([...outcome.alreadyMembers, ...outcome.added]);
        const capped = new Set(outcome.atGuildCap);
        for (const id of chunk) {
          if (!outcome.guildFound) result.failed.push({ id, error: 'UNKNOWN_GUILD' });
          else if (!known.has(id)) result.failed.push({ id, error: 'UNKNOWN_USER' });
          else if (joined.has(id)) result.successful.push(id);
          else result.failed.push({ id, error: capped.has(id) ? 'MAX_GUILDS' : 'MAX_GUILD_MEMBERS' });
        }
      }
      await insertAuditLogs(client, [
        {
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
        },
      ]);
      await completeOperation(client, 'bulk_operations', operation.id, result);
      return result;
    });
}
