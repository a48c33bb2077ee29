import type { Queryable } from '../pool.ts';
import { findMessageById, type StoredMessage } from './messages.ts';

/**
 * A message a webhook delivery posts: the author is the webhook, snapshotted as it is stored
 * (docs/decisions.md#fluxer-webhook-messages).
 */
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
  /** The sender's delivery id (X-GitHub-Delivery), when it sent one: of a webhook's messages with one id, one posts. */
  deliveryId?: string | undefined;
}

export type WebhookMessageWrite =
  | { stored: StoredMessage; inserted: boolean }
  /** The webhook was deleted before the message could be stored: nothing posts. */
  | { webhookGone: true }
  /** The channel was deleted meanwhile (the webhook went with it, or is going). */
  | { channelGone: true }
  /** Another message of the webhook holds its delivery id (a duplicate delivery): that message's id. */
  | { duplicateOf: string };

const FOREIGN_KEY_VIOLATION = '23503';

/** What the database adds to a stored webhook message; the rest is what the worker sent. */
interface AddedColumns {
  id: string;
  channelId: string;
  guildId: string | null;
  webhookName: string;
  webhookAvatarHash: string | null;
  createdAt: Date;
}

/*
 * Each message goes to its webhook's current channel with the webhook's name and avatar as they
 * are now (the webhook read and the insert see the same row). Rows are inserted in id order, so
 * two statements storing the same (retried) messages wait for each other instead of deadlocking.
 * The batch travels as one JSON document (ids as strings, read exactly into bigint), and only
 * the columns the database decides come back: the content and embeds it stored are those sent.
 * Seven parallel arrays and the whole row returned (every embed quoted into a text array, then
 * jsonb printed back and parsed again) cost both the worker and the database more per message
 * (packages/bench/README.md#webhook-worker).
 *
 * A message with a delivery id is inserted only while no other message of its webhook holds
 * that id (the partial unique index of migration 0011): a concurrent statement with the same id
 * waits for this one's commit, then finds it taken; of one batch's messages with the same id the
 * first accepted (lowest id, as they are inserted in id order) posts. A retry of the message
 * that holds it conflicts on the id instead. `ON CONFLICT DO NOTHING` covers both.
 */
const STORE_MANY = `
INSERT INTO messages (id, channel_id, guild_id, author_id, webhook_id, webhook_name, webhook_avatar_hash,
                      webhook_avatar_url, type, content, embeds, flags, delivery_id)
SELECT m.id, w.channel_id, w.guild_id, NULL, w.id, coalesce(m.username, w.name), w.avatar_hash, m."avatarUrl", 0,
       m.content, m.embeds, m.flags, m."deliveryId"
FROM jsonb_to_recordset($1::jsonb)
  AS m(id bigint, "webhookId" bigint, "deliveryId" text, username text, "avatarUrl" text, content text, embeds jsonb, flags int)
JOIN webhooks w ON w.id = m."webhookId"
ORDER BY m.id
ON CONFLICT DO NOTHING
RETURNING id, channel_id AS "channelId", guild_id AS "guildId", webhook_name AS "webhookName",
          webhook_avatar_hash AS "webhookAvatarHash", created_at AS "createdAt"`;

/** The stored row of a message this statement inserted: what was sent, with what the database added. */
function storedRow(message: WebhookDeliveryMessage, added: AddedColumns): StoredMessage {
  return {
    ...added,
    author: null,
    webhookId: message.webhookId,
    webhookAvatarUrl: message.avatarUrl,
    type: 0,
    content: message.content,
    embeds: message.embeds,
    flags: message.flags,
    editedAt: null,
  };
}

/** The message of a webhook that holds a delivery id (null: none does), as committed. */
export async function findDeliveryKeyHolder(
  db: Queryable,
  webhookId: string,
  deliveryId: string,
): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM messages WHERE webhook_id = $1 AND delivery_id = $2',
    [webhookId, deliveryId],
  );
  return rows[0]?.id ?? null;
}

/**
 * A message the batch did not insert: stored by an earlier attempt, a duplicate of the message
 * that holds its delivery id, or its webhook is gone.
 */
async function notInserted(db: Queryable, message: WebhookDeliveryMessage): Promise<WebhookMessageWrite> {
  const existing = await findMessageById(db, message.id);
  if (existing) return { stored: existing, inserted: false };
  const holder =
    message.deliveryId === undefined ? null : await findDeliveryKeyHolder(db, message.webhookId, message.deliveryId);
  return holder !== null && holder !== message.id ? { duplicateOf: holder } : { webhookGone: true };
}

/**
 * Stores webhook messages in ONE statement: one round trip and one commit for all of them,
 * each with the outcome it would have had alone (results in the order of `messages`). A
 * message with its id already there (a retried delivery) is left alone and returned: the row,
 * not this attempt's rendering, is what MESSAGE_CREATE and a `wait=true` answer show. A message
 * whose delivery id another message of its webhook holds (from this batch, another, or days ago)
 * is not stored: `duplicateOf`. Any error fails the whole call (nothing was inserted: it is one
 * statement); a caller batching unrelated deliveries runs them again one by one (createBatcher
 * does). Named: parsed and planned once per connection, not once per batch.
 */
export async function storeWebhookMessages(
  db: Queryable,
  messages: readonly WebhookDeliveryMessage[],
): Promise<WebhookMessageWrite[]> {
  let inserted: Map<string, AddedColumns>;
  try {
    const batch = messages.map(({ id, webhookId, deliveryId, username, avatarUrl, content, embeds, flags }) => ({
      id,
      webhookId,
      deliveryId: deliveryId ?? null,
      username,
      avatarUrl,
      content,
      embeds,
      flags,
    }));
    const { rows } = await db.query<AddedColumns>({
      name: 'webhook-messages-store',
      text: STORE_MANY,
      values: [JSON.stringify(batch)],
    });
    inserted = new Map(rows.map((row) => [row.id, row]));
  } catch (error) {
    if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION && messages.length === 1)
      return [{ channelGone: true }];
    throw error;
  }
  return Promise.all(
    messages.map(async (message) => {
      const added = inserted.get(message.id);
      return added ? { stored: storedRow(message, added), inserted: true } : notInserted(db, message);
    }),
  );
}
