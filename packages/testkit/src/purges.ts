import { storageKeys } from '@switchboard/contracts';
import {
  insertEmojis,
  insertGuild,
  insertGuildAssets,
  insertStickers,
  insertUsers,
  withTransaction,
  type Pool,
} from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import type { Storage } from '@switchboard/storage';
import { testSnowflakeWorkerId } from './ids.ts';

const ids = createSnowflakeGenerator(testSnowflakeWorkerId());

const PNG = { contentType: 'image/png', size: 4 };

/**
 * A guild with an icon, two emojis, a sticker and a webhook with an avatar, objects in the
 * bucket, and an admin to request its purge.
 */
export async function createPurgeGuildFixture(pool: Pool, storage: Storage) {
  const [adminId, ownerId, guildId, iconId, emojiA, emojiB, stickerId, channelId, webhookId] = Array.from(
    { length: 9 },
    () => ids.next(),
  ) as [string, string, string, string, string, string, string, string, string];
  const iconKey = storageKeys.guildAsset(guildId, 'icon', 'abc');
  const avatarKey = storageKeys.webhookAvatar(webhookId, 'def');
  await withTransaction(pool, async (db) => {
    await db.query(`INSERT INTO admin_users (id, name, acls) VALUES ($1, $2, '{*}')`, [adminId, `admin-${adminId}`]);
    await insertUsers(db, [{ id: ownerId, username: `o${ownerId.slice(-8)}` }]);
    await insertGuild(db, { id: guildId, name: 'purge', ownerId, iconHash: 'abc' });
    await insertGuildAssets(db, [{ id: iconId, guildId, kind: 'icon', hash: 'abc', storageKey: iconKey, ...PNG }]);
    await insertEmojis(
      db,
      [emojiA, emojiB].map((id, i) => ({
        id,
        guildId,
        name: `emoji_${i}`,
        creatorId: ownerId,
        storageKey: storageKeys.emoji(id),
        ...PNG,
      })),
    );
    await insertStickers(db, [
      {
        id: stickerId,
        guildId,
        name: 'sticker',
        creatorId: ownerId,
        storageKey: storageKeys.sticker(stickerId),
        ...PNG,
      },
    ]);
    await db.query(`INSERT INTO channels (id, guild_id, type, name) VALUES ($1, $2, 0, 'general')`, [
      channelId,
      guildId,
    ]);
    await db.query(
      `INSERT INTO webhooks (id, guild_id, channel_id, name, avatar_hash, token) VALUES ($1, $2, $3, 'hook', 'def', repeat('a', 64))`,
      [webhookId, guildId, channelId],
    );
  });
  const keys = [
    iconKey,
    avatarKey,
    storageKeys.emoji(emojiA),
    storageKeys.emoji(emojiB),
    storageKeys.sticker(stickerId),
  ];
  for (const key of keys) await storage.upload(key, Buffer.from('png!'), { contentType: 'image/png' });
  return { adminId, guildId, emojiA, emojiB, stickerId, webhookId, keys };
}
