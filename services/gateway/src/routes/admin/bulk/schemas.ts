import { z } from 'zod';
import { snowflakeSchema } from '@switchboard/contracts';

/**
 * `BulkAddGuildMembersRequest` (docs/decisions.md#fluxer-bulk-add), up to BULK_MAX_USER_IDS users
 * (#bulk-add-outcomes).
 */
export function bulkAddSchema(maxUserIds: number) {
  return z.object({
    guild_id: snowflakeSchema,
    user_ids: z.array(snowflakeSchema).max(maxUserIds),
  });
}
