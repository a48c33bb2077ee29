import { storageKeys } from '@switchboard/contracts';
import {
  insertEmojis,
  insertGuild,
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
