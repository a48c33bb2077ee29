import { z } from 'zod';
import { snowflakeSchema } from '@switchboard/contracts';

/** `BulkAddGuildMembersRequest` (reference §8), up to BULK_MAX_USER_IDS users (decisions §8). */
export function bulkAddSchema(maxUserIds: number) {
  return z.object({
    guild_id: snowflakeSchema,
    user_ids: z.array(snowflakeSchema).max(maxUserIds),
  });
}
