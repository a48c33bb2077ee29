import { storageKeys } from '@switchboard/contracts';
import { insertGuild, insertUsers, type Pool } from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';
import type { Storage } from '@switchboard/storage';
import { insertGuildEmojis, uploadPngs } from '../asset-purge/emojis.ts';

/** Users per bulk add: the interface's maximum, as an operator's batch would be. */
export const USERS_PER_BULK_ADD = 1000;
/** Emojis (rows and objects) of each guild a purge empties. */
export const ASSETS_PER_PURGE = 100;

/** How many of each heavy operation the whole run may send. */
export interface OperationsPlan {
  bulkAdds: number;
  purges: number;
}

/** The bodies each heavy operation sends in turn, each naming something not used before. */
export interface OperationBodies {
  bulkAdds: string[];
  purges: string[];
  /** Guilds whose assets the purges remove (what is left of them is deleted at the end). */
  purgeGuildIds: string[];
}

/** `count` groups of USERS_PER_BULK_ADD fresh users, each a bulk add's body into `guildId`. */
async function bulkAddBodies(pool: Pool, ids: SnowflakeGenerator, guildId: string, count: number): Promise<string[]> {
  const bodies: string[] = [];
  for (let group = 0; group < count; group++) {
    const userIds = Array.from({ length: USERS_PER_BULK_ADD }, () => ids.next());
    await insertUsers(
      pool,
      userIds.map((id) => ({ id, username: `s${id.slice(-10)}` })),
    );
    bodies.push(JSON.stringify({ guild_id: guildId, user_ids: userIds }));
  }
  return bodies;
}

/** `count` guilds of ASSETS_PER_PURGE emojis each, rows and objects. */
async function purgeGuilds(
  pool: Pool,
  storage: Storage,
  ids: SnowflakeGenerator,
  ownerId: string,
  count: number,
): Promise<string[]> {
  const guildIds: string[] = [];
  const keys: string[] = [];
  for (let index = 0; index < count; index++) {
    const guildId = ids.next();
    await insertGuild(pool, { id: guildId, name: `bench purge ${index}`, ownerId });
    const emojiIds = Array.from({ length: ASSETS_PER_PURGE }, () => ids.next());
    await insertGuildEmojis(pool, guildId, ownerId, emojiIds);
    keys.push(...emojiIds.map(storageKeys.emoji));
    guildIds.push(guildId);
  }
  await uploadPngs(storage, keys, 16);
  return guildIds;
}

/** Users to add in bulk and guilds of assets to purge, enough for `plan`. */
export async function seedOperations(
  pool: Pool,
  storage: Storage,
  ids: SnowflakeGenerator,
  guild: { guildId: string; ownerId: string },
  plan: OperationsPlan,
  log: (message: string) => void,
): Promise<OperationBodies> {
  const bulkAdds = await bulkAddBodies(pool, ids, guild.guildId, plan.bulkAdds);
  const purgeGuildIds = await purgeGuilds(pool, storage, ids, guild.ownerId, plan.purges);
  log(
    `seeded ${plan.bulkAdds * USERS_PER_BULK_ADD} users to add in bulk and ${plan.purges} guilds of ${ASSETS_PER_PURGE} assets to purge`,
  );
  return {
    bulkAdds,
    purges: purgeGuildIds.map((guildId) => JSON.stringify({ guild_id: guildId })),
    purgeGuildIds,
  };
}
