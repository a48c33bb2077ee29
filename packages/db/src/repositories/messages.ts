import type { MessageRecord } from '@switchboard/contracts';
import type { Queryable } from '../pool.ts';

/**
 * Synthetic messages made entirely inside PostgreSQL (generate_series), for seeding and
 * benchmarks: a million rows take one round trip per batch, not a million.
 *
 * Message `i` (for i in [from, to)) gets the snowflake whose millisecond is
 * `startMs + floor(i / 4096)`, worker `workerId` and sequence `i % 4096`, so ids are unique,
 * increase with i and carry a real creation time. The caller owns that id block: it must not
 * hand out other ids of the same worker in those milliseconds.
 */
export interface GeneratedMessages {
  guildId: string;
  /** Messages go round-robin over these channels. */
  channelIds: string[];
  authorIds: string[];
  /** Contents are drawn from these, each suffixed with the message's index. */
  phrases: string[];
  /** Milliseconds since the snowflake epoch of message 0. */
  startMs: bigint;
  workerId: number;
  from: number;
  to: number;
}

const SNOWFLAKE_EPOCH_MS = 1420070400000;

export async function insertGeneratedMessages(db: Queryable, batch: GeneratedMessages): Promise<number> {
  if (batch.to <= batch.from) return 0;
  const result = await db.query(
    `INSERT INTO messages (id, channel_id, guild_id, author_id, content, created_at)
     SELECT m.id,
            ($2::bigint[])[1 + m.i % cardinality($2::bigint[])],
            $1::bigint,
            ($3::bigint[])[1 + (m.i * 7) % cardinality($3::bigint[])],
            ($4::text[])[1 + (m.i * 31) % cardinality($4::text[])] || ' (#' || m.i || ')',
            to_timestamp(($5::bigint + (m.id >> 22)) / 1000.0)
     FROM (
       SELECT i, ((($6::bigint + i / 4096) << 22) | ($7::bigint << 12) | (i % 4096)) AS id
       FROM generate_series($8::bigint, $9::bigint - 1) AS i
     ) AS m`,
    [
      batch.guildId,
      batch.channelIds,
      batch.authorIds,
      batch.phrases,
      SNOWFLAKE_EPOCH_MS,
      batch.startMs.toString(),
      batch.workerId,
      batch.from,
      batch.to,
    ],
  );
  return result.rowCount ?? 0;
}

/** Message counts and id range per channel, for reports (uses the (channel_id, id) index). */
export async function summarizeChannelMessages(
  db: Queryable,
  channelIds: string[],
): Promise<Array<{ channelId: string; count: number; firstId: string | null; lastId: string | null }>> {
  const { rows } = await db.query<{ channelId: string; count: number; firstId: string | null; lastId: string | null }>(
    `SELECT c.id AS "channelId",
            (SELECT count(*)::int FROM messages m WHERE m.channel_id = c.id) AS count,
            (SELECT min(id) FROM messages m WHERE m.channel_id = c.id) AS "firstId",
            (SELECT max(id) FROM messages m WHERE m.channel_id = c.id) AS "lastId"
     FROM unnest($1::bigint[]) WITH ORDINALITY AS c (id, n)
     ORDER BY c.n`,
    [channelIds],
  );
  return rows;
}

/** A message with its author's public user columns (null for webhook messages and deleted authors). */
export interface StoredMessage extends MessageRecord {
  createdAt: Date;
}

// int8 columns go through text so that json keeps them exact.
const STORED_MESSAGE = `SELECT m.id, m.channel_id AS "channelId", m.guild_id AS "guildId",
  CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object(
    'id', u.id::text, 'username', u.username, 'discriminator', u.discriminator, 'globalName', u.global_name,
    'avatarHash', u.avatar_hash, 'flags', u.flags::text, 'bot', u.bot, 'system', u.system) END AS author,
  m.webhook_id AS "webhookId", m.webhook_name AS "webhookName", m.webhook_avatar_hash AS "webhookAvatarHash",
  m.webhook_avatar_url AS "webhookAvatarUrl", m.type, m.content, m.embeds, m.flags,
  m.created_at AS "createdAt", m.edited_at AS "editedAt"
  FROM messages m LEFT JOIN users u ON u.id = m.author_id`;

export async function findMessageById(db: Queryable, id: string): Promise<StoredMessage | null> {
  const { rows } = await db.query<StoredMessage>(`${STORED_MESSAGE} WHERE m.id = $1`, [id]);
  return rows[0] ?? null;
}

export interface MessagePage {
  /** Only messages with a smaller id. */
  before?: string | undefined;
  /** Only messages with a larger id. */
  after?: string | undefined;
  limit: number;
}

/**
 * One page of a channel, newest first, as Discord pages: without `after`, the `limit` newest
 * messages (below `before`); with `after`, the `limit` messages right after it (the oldest
 * ones above it), still returned newest first. Both walk the (channel_id, id) index.
 */
export async function listChannelMessages(
  db: Queryable,
  channelId: string,
  page: MessagePage,
): Promise<StoredMessage[]> {
  const direction = page.after === undefined ? 'DESC' : 'ASC';
  const { rows } = await db.query<StoredMessage>(
    `SELECT * FROM (
       ${STORED_MESSAGE}
       WHERE m.channel_id = $1 AND ($2::bigint IS NULL OR m.id < $2) AND ($3::bigint IS NULL OR m.id > $3)
       ORDER BY m.id ${direction} LIMIT $4
     ) page ORDER BY page.id DESC`,
    [channelId, page.before ?? null, page.after ?? null, page.limit],
  );
  return rows;
}

/** A webhook's edit of one of its messages: absent fields keep their stored value. */
export interface WebhookMessageEdit {
  webhookId: string;
  messageId: string;
  content?: string | undefined;
  embeds?: unknown[] | undefined;
  /** The edit's own time (from its snowflake), so a retried edit writes the same row. */
  editedAt: Date;
}

/**
 * Applies an edit to a message the webhook posted, unless a later edit already landed (a stale
 * retry must not undo it). Answers the message as it now is and whether this edit is what it
 * shows, or null when it is gone (or was never this webhook's).
 */
export async function editWebhookMessage(
  db: Queryable,
  edit: WebhookMessageEdit,
): Promise<{ message: StoredMessage; applied: boolean } | null> {
  const { rowCount } = await db.query(
    `UPDATE messages SET content = coalesce($3, content), embeds = coalesce($4::jsonb, embeds), edited_at = $5
     WHERE id = $1 AND webhook_id = $2 AND (edited_at IS NULL OR edited_at <= $5)`,
    [
      edit.messageId,
      edit.webhookId,
      edit.content ?? null,
      edit.embeds === undefined ? null : JSON.stringify(edit.embeds),
      edit.editedAt,
    ],
  );
  const message = await findMessageById(db, edit.messageId);
  if (!message || message.webhookId !== edit.webhookId) return null;
  return { message, applied: rowCount === 1 };
}

/** Deletes a message the webhook posted; false when there was none (already deleted). */
export async function deleteWebhookMessage(db: Queryable, webhookId: string, messageId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM messages WHERE id = $1 AND webhook_id = $2', [messageId, webhookId]);
  return rowCount === 1;
}
