import type { Queryable } from '../pool.ts';
import { findMessageById, type StoredMessage } from './messages.ts';

/** A message a webhook posts: the author is the webhook, snapshotted now (reference §4). */
export interface NewWebhookMessage {
  /** Fixed when the request was accepted; the same id on every retry of the delivery. */
  id: string;
  channelId: string;
  guildId: string;
  webhookId: string;
  /** The payload's username override, else the webhook's name at send time. */
  webhookName: string;
  webhookAvatarHash: string | null;
  /** A remote avatar_url/icon_url from the payload: stored, never fetched. */
  webhookAvatarUrl: string | null;
  content: string;
  /** Discord-shaped embeds as they are stored and presented. */
  embeds: unknown[];
  flags: number;
}

export type WebhookMessageWrite =
  | { stored: StoredMessage; inserted: boolean }
  /** The channel was deleted before the message could be stored. */
  | { channelGone: true };

const FOREIGN_KEY_VIOLATION = '23503';

function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION;
}

/**
 * Stores the message unless a message with its id exists already (a retried delivery), and
 * returns the stored row either way: the row, not this attempt's rendering, is what the
 * MESSAGE_CREATE event and a `wait=true` answer show.
 */
export async function insertWebhookMessage(db: Queryable, message: NewWebhookMessage): Promise<WebhookMessageWrite> {
  let inserted: boolean;
  try {
    const { rowCount } = await db.query(
      `INSERT INTO messages (id, channel_id, guild_id, author_id, webhook_id, webhook_name, webhook_avatar_hash,
                             webhook_avatar_url, type, content, embeds, flags)
       VALUES ($1, $2, $3, NULL, $4, $5, $6, $7, 0, $8, $9::jsonb, $10)
       ON CONFLICT (id) DO NOTHING`,
      [
        message.id,
        message.channelId,
        message.guildId,
        message.webhookId,
        message.webhookName,
        message.webhookAvatarHash,
        message.webhookAvatarUrl,
        message.content,
        JSON.stringify(message.embeds),
        message.flags,
      ],
    );
    inserted = rowCount === 1;
  } catch (error) {
    if (isForeignKeyViolation(error)) return { channelGone: true };
    throw error;
  }
  const stored = await findMessageById(db, message.id);
  // Inserted or found a moment ago, then deleted with its channel: as good as gone.
  if (!stored) return { channelGone: true };
  return { stored, inserted };
}

/** How many messages a webhook has posted (tests and benchmarks count deliveries by it). */
export async function countWebhookMessages(db: Queryable, webhookId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM messages WHERE webhook_id = $1',
    [webhookId],
  );
  return rows[0]?.count ?? 0;
}
