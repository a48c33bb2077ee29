import type { Queryable } from '../pool.ts';
import { findMessageById, type StoredMessage } from './messages.ts';

/** A message a webhook delivery posts: the author is the webhook, snapshotted as it is stored (reference §4). */
export interface WebhookDeliveryMessage {
  /** Fixed when the request was accepted; the same id on every retry of the delivery. */
  id: string;
  webhookId: string;
  /** The payload's username override; else the webhook's name at send time. */
  username: string | null;
  /** A remote avatar_url/icon_url from the payload: stored, never fetched. */
  avatarUrl: string | null;
  content: string;
  /** Discord-shaped embeds as they are stored and presented. */
  embeds: unknown[];
  flags: number;
}

export type WebhookMessageWrite =
  | { stored: StoredMessage; inserted: boolean }
  /** The webhook was deleted before the message could be stored: nothing posts. */
  | { webhookGone: true }
  /** The channel was deleted meanwhile (the webhook went with it, or is going). */
  | { channelGone: true };

const FOREIGN_KEY_VIOLATION = '23503';

// The same columns and names as messages.ts reads; a webhook message has no author row.
const RETURNED = `id, channel_id AS "channelId", guild_id AS "guildId", NULL::json AS author, webhook_id AS "webhookId",
  webhook_name AS "webhookName", webhook_avatar_hash AS "webhookAvatarHash", webhook_avatar_url AS "webhookAvatarUrl",
  type, content, embeds, flags, created_at AS "createdAt", edited_at AS "editedAt"`;

/*
 * Each message goes to its webhook's current channel with the webhook's name and avatar as they
 * are now (the webhook read and the insert see the same row). Rows are inserted in id order, so
 * two statements storing the same (retried) messages wait for each other instead of deadlocking.
 */
const STORE_MANY = `
INSERT INTO messages (id, channel_id, guild_id, author_id, webhook_id, webhook_name, webhook_avatar_hash,
                      webhook_avatar_url, type, content, embeds, flags)
SELECT m.id, w.channel_id, w.guild_id, NULL, w.id, coalesce(m.username, w.name), w.avatar_hash, m.avatar_url, 0,
       m.content, m.embeds::jsonb, m.flags
FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[])
  AS m(id, webhook_id, username, avatar_url, content, embeds, flags)
JOIN webhooks w ON w.id = m.webhook_id
ORDER BY m.id
ON CONFLICT (id) DO NOTHING
RETURNING ${RETURNED}`;

/** A message the batch did not insert: stored by an earlier attempt, or its webhook is gone. */
async function notInserted(db: Queryable, id: string): Promise<WebhookMessageWrite> {
  const existing = await findMessageById(db, id);
  return existing ? { stored: existing, inserted: false } : { webhookGone: true };
}

/**
 * Stores webhook messages in ONE statement: one round trip and one commit for all of them,
 * each with the outcome it would have had alone (results in the order of `messages`). A
 * message with its id already there (a retried delivery) is left alone and returned: the row,
 * not this attempt's rendering, is what MESSAGE_CREATE and a `wait=true` answer show. Any error fails the whole call (nothing was inserted: it is one statement);
 * a caller batching unrelated deliveries runs them again one by one (createBatcher does). Named:
 * parsed and planned once per connection, not once per batch.
 */
export async function storeWebhookMessages(db: Queryable, messages: readonly WebhookDeliveryMessage[]): Promise<WebhookMessageWrite[]> {
  let inserted: Map<string, StoredMessage>;
  try {
    const { rows } = await db.query<StoredMessage>({
      name: 'webhook-messages-store',
      text: STORE_MANY,
      values: [
        messages.map((message) => message.id),
        messages.map((message) => message.webhookId),
        messages.map((message) => message.username),
        messages.map((message) => message.avatarUrl),
        messages.map((message) => message.content),
        messages.map((message) => JSON.stringify(message.embeds)),
        messages.map((message) => message.flags),
      ],
    });
    inserted = new Map(rows.map((row) => [row.id, row]));
  } catch (error) {
    if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION && messages.length === 1) return [{ channelGone: true }];
    throw error;
  }
  return Promise.all(
    messages.map(async (message) => {
      const row = inserted.get(message.id);
      return row ? { stored: row, inserted: true } : notInserted(db, message.id);
    }),
  );
}
