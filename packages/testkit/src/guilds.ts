import { storageKeys } from '@switchboard/contracts';
import {
  insertEmojis,
  insertGuild,
  insertGuildAssets,
  insertMembers,
  insertStickers,
  insertUsers,
  withTransaction,
  type Pool,
} from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import type { Storage } from '@switchboard/storage';
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

/** The bytes of the fixture's emoji object. */
export const ARCHIVE_FIXTURE_PNG = Buffer.from('89504e470d0a1a0a0000', 'hex');
/**
 * The small channel's one message: text COPY would escape or quote (backslashes, quotes, line
 * breaks, control bytes) and multi-byte UTF-8; it must come out as stored.
 */
export const ARCHIVE_FIXTURE_HOSTILE_TEXT =
  'back\\slash \\\\ "quoted" \n new line \t tab \r \u0001\u0002 , {"id":"1"} «ünïcode» 🎉';

/**
 * A guild to archive: owner and two members, two text channels (one with 12,000 messages, by
 * the two members in turn), a voice channel, an emoji with its object, a sticker without.
 */
export async function createArchiveGuildFixture(pool: Pool, storage: Storage, messagesInBig = 12_000) {
  const [ownerId, userA, userB, guildId, big, small, voice, emojiId, stickerId] = Array.from({ length: 9 }, () =>
    ids.next(),
  ) as [string, string, string, string, string, string, string, string, string];
  await withTransaction(pool, async (db) => {
    await insertUsers(
      db,
      [ownerId, userA, userB].map((id) => ({ id, username: `u${id.slice(-8)}` })),
    );
    await insertGuild(db, { id: guildId, name: 'Archived guild', ownerId });
    await insertMembers(db, guildId, [{ userId: ownerId }, { userId: userA, nick: 'Aye' }, { userId: userB }]);
    await db.query(
      `INSERT INTO channels (id, guild_id, type, name, position) VALUES ($1, $4, 0, 'big', 0), ($2, $4, 0, 'small', 1), ($3, $4, 2, 'voice', 2)`,
      [big, small, voice, guildId],
    );
    // Increasing ids: the order a channel's messages were written in.
    const messageIds = Array.from({ length: messagesInBig }, () => ids.next());
    await db.query(
      `INSERT INTO messages (id, channel_id, guild_id, author_id, content)
       SELECT id, $2, $3, CASE WHEN n % 2 = 0 THEN $4::bigint ELSE $5::bigint END, 'message ' || n || ' «ünïcode» "quoted"'
       FROM unnest($1::bigint[]) WITH ORDINALITY AS m (id, n)`,
      [messageIds, big, guildId, userA, userB],
    );
    await db.query(`INSERT INTO messages (id, channel_id, guild_id, author_id, content) VALUES ($1, $2, $3, $4, $5)`, [
      ids.next(),
      small,
      guildId,
      ownerId,
      ARCHIVE_FIXTURE_HOSTILE_TEXT,
    ]);
    await insertEmojis(db, [
      {
        id: emojiId,
        guildId,
        name: 'wave',
        creatorId: ownerId,
        storageKey: storageKeys.emoji(emojiId),
        contentType: 'image/png',
        size: ARCHIVE_FIXTURE_PNG.length,
      },
    ]);
    await insertStickers(db, [
      {
        id: stickerId,
        guildId,
        name: 'gone',
        creatorId: ownerId,
        storageKey: storageKeys.sticker(stickerId),
        contentType: 'image/png',
        size: ARCHIVE_FIXTURE_PNG.length,
      },
    ]);
  });
  await storage.upload(storageKeys.emoji(emojiId), ARCHIVE_FIXTURE_PNG, { contentType: 'image/png' });
  return { guildId, ownerId, userA, userB, big, small, voice, emojiId, stickerId };
}

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
