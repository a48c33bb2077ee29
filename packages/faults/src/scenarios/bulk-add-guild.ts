import { insertGuild, insertMembers, insertUsers, withTransaction, type Pool } from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';

/** A guild whose one member is its owner, and `users` more users for a bulk add to it. */
export async function seedBulkAddGuild(
  pool: Pool,
  ids: SnowflakeGenerator,
  { name, users }: { name: string; users: number },
): Promise<{ guildId: string; userIds: string[] }> {
  const [ownerId, guildId] = [ids.next(), ids.next()];
  const userIds = Array.from({ length: users }, () => ids.next());
  await withTransaction(pool, async (db) => {
    await insertUsers(
      db,
      [ownerId, ...userIds].map((id) => ({ id, username: `u${id.slice(-8)}` })),
    );
    await insertGuild(db, { id: guildId, name, ownerId });
    await insertMembers(db, guildId, [{ userId: ownerId }]);
  });
  return { guildId, userIds };
}
