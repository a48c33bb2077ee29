import { insertGuild, insertMembers, insertUsers, withTransaction, type Pool } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { testSnowflakeWorkerId } from './ids.ts';

const ids = createSnowflakeGenerator(testSnowflakeWorkerId());

/** A guild (with its owner as member) and `users` users in no guild. */
export async function createGuildFixture(
  pool: Pool,
  users: number,
  maxMembers?: number,
): Promise<{ guildId: string; userIds: string[] }> {
  const ownerId = ids.next();
  const guildId = ids.next();
  const userIds = Array.from({ length: users }, () => ids.next());
  await withTransaction(pool, async (db) => {
    await insertUsers(
      db,
      [ownerId, ...userIds].map((id) => ({ id, username: `u${id.slice(-8)}` })),
    );
    await insertGuild(db, { id: guildId, name: 'bulk', ownerId, maxMembers });
    await insertMembers(db, guildId, [{ userId: ownerId }]);
  });
  return { guildId, userIds };
}
