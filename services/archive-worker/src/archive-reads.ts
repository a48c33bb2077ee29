import type { Pool, Queryable } from '@switchboard/db';
import { jsonObjects, jsonShape, readBinaryRows, type JsonField } from './copy/binary-json.ts';
import { bigintLiteral, copyBinaryRows, copyJsonRows } from './copy/copy-out.ts';

/**
 * The reads an archive export streams (docs/decisions.md#archive-exports): every row in keyset pages, read with
 * COPY so that memory stays a page or two whatever the guild's size. Messages, nearly all of
 * an archive, come in COPY's binary format and are written as JSON here (`copy/binary-json.ts`);
 * members are rendered by PostgreSQL and read as JSON bytes (`copyJsonRows`).
 */
export interface JsonPage {
  /**
   * The page's objects as UTF-8 JSON, each written `,{…}` and followed by a newline: a comma
   * before every object (the array's first one has it cut), whitespace after; nothing when
   * none. Iterate it once: a page of messages is written as it is read.
   */
  json: Iterable<Buffer>;
  rows: number;
  /** The key to continue after (the last object's first field), or null when the page was empty. */
  last: string | null;
}

/** The first field of the page's last object: `,{"<key name>":"<digits>"` (json_build_object spaces the colon). */
const LAST_KEY = /^,\{"[a-z_]+" ?: ?"(\d+)"/;

async function jsonPage(pool: Pool, select: string): Promise<JsonPage> {
  const { data, rows } = await copyJsonRows(pool, select);
  if (rows === 0) return { json: [], rows, last: null };
  // The last row: after the newline before the final one.
  const last = LAST_KEY.exec(data.toString('utf8', data.lastIndexOf(0x0a, data.length - 2) + 1, data.length))?.[1];
  if (last === undefined) throw new Error("an archive page's last object does not start with its key");
  return { json: [data], rows, last };
}

/**
 * A timestamptz as JSON exactly as PostgreSQL writes it in a session whose TimeZone is UTC
 * (`"2026-11-23T21:29:05.407+00:00"`, `" BC"` last, `"infinity"`), whatever the session's
 * TimeZone: behind a transaction pooler the session is not ours to set. Rendered from the UTC
 * wall time, which to_json writes without an offset.
 */
export function utcJson(column: string): string {
  return `to_json(regexp_replace(to_json((${column}) AT TIME ZONE 'UTC') #>> '{}', '(:\\d\\d(\\.\\d+)?)( BC)?$', '\\1+00:00\\3'))`;
}

/** An object's fields and the column (an expression of `msg`) each is read from; the first is the keyset's key. */
type Columns = ReadonlyArray<JsonField & { column: string }>;

function binaryObjects(columns: Columns) {
  return { shape: jsonShape(columns), select: columns.map((field) => field.column).join(', ') };
}

/**
 * A message as an archive holds it, the keys and values `row_to_json` gave it before, dates in
 * UTC (as PostgreSQL writes them with TimeZone UTC; binary COPY's dates carry no zone). `readBinaryRows`
 * checks each page against the kinds, so a column whose type changes fails loudly.
 */
const MESSAGE_FIELDS = {
  id: { key: 'id', column: 'msg.id', kind: 'int8-string' },
  author_id: { key: 'author_id', column: 'msg.author_id', kind: 'int8-string' },
  webhook_id: { key: 'webhook_id', column: 'msg.webhook_id', kind: 'int8-string' },
  webhook_name: { key: 'webhook_name', column: 'msg.webhook_name', kind: 'text' },
  timestamp: { key: 'timestamp', column: 'msg.created_at', kind: 'timestamptz' },
  edited_timestamp: { key: 'edited_timestamp', column: 'msg.edited_at', kind: 'timestamptz' },
  type: { key: 'type', column: 'msg.type', kind: 'int2' },
  content: { key: 'content', column: 'msg.content', kind: 'text' },
  embeds: { key: 'embeds', column: 'msg.embeds', kind: 'jsonb' },
  flags: { key: 'flags', column: 'msg.flags', kind: 'int4' },
} as const satisfies Record<string, Columns[number]>;

/** The message fields named, in that order (the keys' order in each JSON object). */
const messageObjects = (keys: ReadonlyArray<keyof typeof MESSAGE_FIELDS>) =>
  binaryObjects(keys.map((key) => MESSAGE_FIELDS[key]));

const CHANNEL_MESSAGE = messageObjects([
  'id',
  'author_id',
  'webhook_id',
  'webhook_name',
  'timestamp',
  'edited_timestamp',
  'type',
  'content',
  'embeds',
  'flags',
]);

/** A message in a user's archive: what they wrote and when. */
const USER_MESSAGE = messageObjects(['id', 'timestamp', 'edited_timestamp', 'content', 'embeds']);

async function messagePage(
  pool: Pool,
  objects: ReturnType<typeof binaryObjects>,
  fromWhereOrder: string,
): Promise<JsonPage> {
  const { data } = await copyBinaryRows(pool, `SELECT ${objects.select} ${fromWhereOrder}`);
  const page = readBinaryRows(data, objects.shape);
  return { json: jsonObjects(page, objects.shape), rows: page.rows, last: page.lastKey };
}

/** Messages of a channel with an id above `after`, oldest first. */
export function channelMessagesPage(pool: Pool, channelId: string, after: string, limit: number): Promise<JsonPage> {
  return messagePage(
    pool,
    CHANNEL_MESSAGE,
    `FROM messages AS msg
     WHERE msg.channel_id = ${bigintLiteral(channelId)} AND msg.id > ${bigintLiteral(after)}
     ORDER BY msg.id LIMIT ${Math.trunc(limit)}`,
  );
}

/** Messages a user wrote in one channel with an id above `after`, oldest first. */
export function userChannelMessagesPage(
  pool: Pool,
  userId: string,
  channelId: string,
  after: string,
  limit: number,
): Promise<JsonPage> {
  return messagePage(
    pool,
    USER_MESSAGE,
    `FROM messages AS msg
     WHERE msg.author_id = ${bigintLiteral(userId)} AND msg.channel_id = ${bigintLiteral(channelId)} AND msg.id > ${bigintLiteral(after)}
     ORDER BY msg.id LIMIT ${Math.trunc(limit)}`,
  );
}

/** Members of a guild with a user id above `after`, in user id order. */
export function guildMembersPage(pool: Pool, guildId: string, after: string, limit: number): Promise<JsonPage> {
  return jsonPage(
    pool,
    `SELECT ',' || json_build_object('user_id', user_id::text, 'joined_at', ${utcJson('joined_at')}, 'nickname', nick,
              'role_ids', role_ids::text[], 'avatar_hash', avatar_hash, 'banner_hash', banner_hash)::text
     FROM members WHERE guild_id = ${bigintLiteral(guildId)} AND user_id > ${bigintLiteral(after)}
     ORDER BY user_id LIMIT ${Math.trunc(limit)}`,
  );
}

/**
 * The small parts of guild.json (docs/decisions.md#fluxer-archive-layout), each already JSON; null
 * when the guild is gone.
 */
export interface GuildArchiveHead {
  guild: string;
  roles: string;
  emojis: string;
  stickers: string;
  channels: string;
  /** Text channels (type 0 and 5): one messages.json each. */
  textChannels: Array<{ id: string }>;
  /** Objects of the guild's images: the current icon, banner, splashes, every emoji and sticker. */
  assets: Array<{ path: string; key: string }>;
}

export async function readGuildArchiveHead(db: Queryable, guildId: string): Promise<GuildArchiveHead | null> {
  const { rows } = await db.query<
    Omit<GuildArchiveHead, 'textChannels' | 'assets'> & { textChannels: GuildArchiveHead['textChannels'] | null }
  >(
    `SELECT json_build_object('id', g.id::text, 'name', g.name, 'owner_id', g.owner_id::text, 'features', g.features,
              'icon_hash', g.icon_hash, 'banner_hash', g.banner_hash, 'splash_hash', g.splash_hash,
              'embed_splash_hash', g.embed_splash_hash, 'verification_level', g.verification_level,
              'default_message_notifications', g.default_message_notifications,
              'explicit_content_filter', g.explicit_content_filter, 'member_count', g.member_count,
              'created_at', ${utcJson('g.created_at')})::text AS guild,
       (SELECT coalesce(json_agg(json_build_object('id', id::text, 'name', name, 'color', color, 'position', position,
              'permissions', permissions::text, 'mentionable', mentionable, 'hoist', hoist) ORDER BY position, id), '[]')::text
          FROM roles WHERE guild_id = g.id) AS roles,
       (SELECT coalesce(json_agg(json_build_object('id', id::text, 'name', name, 'animated', animated,
              'creator_id', creator_id::text) ORDER BY id), '[]')::text FROM emojis WHERE guild_id = g.id) AS emojis,
       (SELECT coalesce(json_agg(json_build_object('id', id::text, 'name', name, 'description', description,
              'animated', animated, 'format_type', format_type, 'tags', tags, 'creator_id', creator_id::text) ORDER BY id), '[]')::text
          FROM stickers WHERE guild_id = g.id) AS stickers,
       (SELECT coalesce(json_agg(json_build_object('id', id::text, 'name', name, 'type', type, 'parent_id', parent_id::text,
              'topic', topic, 'nsfw', nsfw, 'position', position) ORDER BY position, id), '[]')::text
          FROM channels WHERE guild_id = g.id) AS channels,
       (SELECT json_agg(json_build_object('id', c.id::text) ORDER BY c.position, c.id)
          FROM channels c WHERE c.guild_id = g.id AND c.type IN (0, 5)) AS "textChannels"
     FROM guilds g WHERE g.id = $1`,
    [guildId],
  );
  const head = rows[0];
  if (!head) return null;
  const { rows: assets } = await db.query<{ path: string; key: string }>(
    `SELECT 'assets/guild/' || replace(a.kind, '_', '-') || '.png' AS path, a.storage_key AS key
       FROM guild_assets a JOIN guilds g ON g.id = a.guild_id
      WHERE a.guild_id = $1
        AND a.hash = CASE a.kind WHEN 'icon' THEN g.icon_hash WHEN 'banner' THEN g.banner_hash
                                 WHEN 'splash' THEN g.splash_hash WHEN 'embed_splash' THEN g.embed_splash_hash END
     UNION ALL
     SELECT 'assets/guild/emojis/' || id || CASE WHEN animated THEN '.gif' ELSE '.png' END, storage_key FROM emojis WHERE guild_id = $1
     UNION ALL
     SELECT 'assets/guild/stickers/' || id || '.png', storage_key FROM stickers WHERE guild_id = $1`,
    [guildId],
  );
  return { ...head, textChannels: head.textChannels ?? [], assets };
}

/**
 * How many messages the channels hold, for an archive's progress only: counting a large guild
 * visits every one of its messages, so the export starts without waiting for it.
 */
export async function countChannelMessages(db: Queryable, channelIds: readonly string[]): Promise<number> {
  const { rows } = await db.query<{ total: string }>(
    'SELECT count(*) AS total FROM messages WHERE channel_id = ANY($1::bigint[])',
    [channelIds],
  );
  return Number(rows[0]?.total ?? 0);
}

/** What user.json holds besides the messages, already JSON; null when the user is gone. */
export interface UserArchiveHead {
  user: string;
  guildMemberships: string;
  /** Channels the user wrote in, with their counts. */
  channels: Array<{ id: string; messages: number }>;
  avatarHash: string | null;
}

export async function readUserArchiveHead(db: Queryable, userId: string): Promise<UserArchiveHead | null> {
  const { rows } = await db.query<UserArchiveHead>(
    `SELECT json_build_object('id', u.id::text, 'username', u.username, 'discriminator', u.discriminator,
              'global_name', u.global_name, 'bot', u.bot, 'system', u.system, 'email', u.email, 'phone', u.phone,
              'avatar_hash', u.avatar_hash, 'banner_hash', u.banner_hash, 'flags', u.flags::text,
              'created_at', ${utcJson('u.created_at')})::text AS user,
       (SELECT coalesce(json_agg(json_build_object('guild_id', m.guild_id::text, 'guild_name', g.name,
              'joined_at', ${utcJson('m.joined_at')}, 'nick', m.nick, 'avatar_hash', m.avatar_hash, 'banner_hash', m.banner_hash,
              'role_ids', m.role_ids::text[]) ORDER BY m.guild_id), '[]')::text
          FROM members m JOIN guilds g ON g.id = m.guild_id WHERE m.user_id = u.id) AS "guildMemberships",
       (SELECT coalesce(json_agg(json_build_object('id', channel_id::text, 'messages', n) ORDER BY channel_id), '[]')
          FROM (SELECT channel_id, count(*) AS n FROM messages WHERE author_id = u.id GROUP BY channel_id) c) AS channels,
       u.avatar_hash AS "avatarHash"
     FROM users u WHERE u.id = $1`,
    [userId],
  );
  const head = rows[0];
  return head ? { ...head, channels: head.channels.map((c) => ({ id: c.id, messages: Number(c.messages) })) } : null;
}
