import type { Queryable } from '../pool.ts';
import { findMessageById, type StoredMessage } from './messages.ts';

/** Where a delivery came from: the `source` of its dedupe key. */
export type DeliverySource = 'plain' | 'codehost' | 'errortracker' | 'chatapp';

/** A delivery's dedupe key (X-GitHub-Delivery), taken with its message. */
export interface DeliveryKey {
  deliveryId: string;
  source: DeliverySource;
}

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
  /** The sender's delivery id, when it sent one: of the messages with the same key, one posts. */
  dedupe?: DeliveryKey | undefined;
}

export type WebhookMessageWrite =
  | { stored: StoredMessage; inserted: boolean }
  /** The webhook was deleted before the message could be stored: nothing posts. */
  | { webhookGone: true }
  /** The channel was deleted meanwhile (the webhook went with it, or is going). */
  | { channelGone: true }
  /** Another delivery with the same dedupe key posted (the message under `messageId`). */
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
 * Against seven parallel arrays and the whole row returned (every embed quoted into a text
 * array, then jsonb printed back and parsed again), per message stored in batches of 8: 15.2
 * against 22.0 µs of worker CPU and 41.7 against 46.1 µs of the database's (alternating runs).
 *
 * A message with a dedupe key is inserted only when its key is its own: taken by this statement
 * (the unique key makes a concurrent statement with the same key wait for this one's commit,
 * then find it taken), or taken with this message id by an earlier attempt (the EXISTS reads the
 * statement's snapshot, which the `claimed` insert does not change); of one batch's messages
 * with the same key the first accepted (lowest id) posts. Keys are taken in key order, before
 * any message, so overlapping batches wait for each other instead of deadlocking. The
 * key and the message commit together: a delivery that never stores its message holds no key.
 */
const STORE_MANY = `
WITH m AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS m(id bigint, "webhookId" bigint, "deliveryId" text, source text,
                                                   username text, "avatarUrl" text, content text, embeds jsonb, flags int)
), claimed AS (
  INSERT INTO webhook_deliveries (webhook_id, delivery_id, source, message_id)
  SELECT m."webhookId", m."deliveryId", m.source, m.id FROM m JOIN webhooks w ON w.id = m."webhookId"
  WHERE m."deliveryId" IS NOT NULL
  ORDER BY m."webhookId", m."deliveryId", m.id
  ON CONFLICT (webhook_id, delivery_id) DO NOTHING
  RETURNING message_id
)
INSERT INTO messages (id, channel_id, guild_id, author_id, webhook_id, webhook_name, webhook_avatar_hash,
                      webhook_avatar_url, type, content, embeds, flags)
SELECT m.id, w.channel_id, w.guild_id, NULL, w.id, coalesce(m.username, w.name), w.avatar_hash, m."avatarUrl", 0,
       m.content, m.embeds, m.flags
FROM m JOIN webhooks w ON w.id = m."webhookId"
WHERE m."deliveryId" IS NULL
   OR m.id IN (SELECT message_id FROM claimed)
   OR EXISTS (SELECT 1 FROM webhook_deliveries d
              WHERE d.webhook_id = m."webhookId" AND d.delivery_id = m."deliveryId" AND d.message_id = m.id)
ORDER BY m.id
ON CONFLICT (id) DO NOTHING
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

/** The message that holds a webhook's dedupe key (null: nobody took it), as committed. */
export async function findDeliveryKeyHolder(db: Queryable, webhookId: string, deliveryId: string): Promise<string | null> {
  const { rows } = await db.query<{ messageId: string | null }>(
    'SELECT message_id AS "messageId" FROM webhook_deliveries WHERE webhook_id = $1 AND delivery_id = $2',
    [webhookId, deliveryId],
  );
  return rows[0]?.messageId ?? null;
}

/**
 * A message the batch did not insert: stored by an earlier attempt, a duplicate of the
 * delivery that holds its key, or its webhook is gone.
 */
async function notInserted(db: Queryable, message: WebhookDeliveryMessage): Promise<WebhookMessageWrite> {
  const existing = await findMessageById(db, message.id);
  if (existing) return { stored: existing, inserted: false };
  const holder = message.dedupe ? await findDeliveryKeyHolder(db, message.webhookId, message.dedupe.deliveryId) : null;
  return holder !== null && holder !== message.id ? { duplicateOf: holder } : { webhookGone: true };
}

/**
 * Stores webhook messages in ONE statement: one round trip and one commit for all of them,
 * each with the outcome it would have had alone (results in the order of `messages`). A
 * message with its id already there (a retried delivery) is left alone and returned: the row,
 * not this attempt's rendering, is what MESSAGE_CREATE and a `wait=true` answer show. A message
 * whose dedupe key another message took (in this batch, another, or days ago) is not stored:
 * `duplicateOf`. Any error fails the whole call (nothing was inserted: it is one statement); a
 * caller batching unrelated deliveries runs them again one by one (createBatcher does). Named:
 * parsed and planned once per connection, not once per batch.
 */
export async function storeWebhookMessages(db: Queryable, messages: readonly WebhookDeliveryMessage[]): Promise<WebhookMessageWrite[]> {
  let inserted: Map<string, AddedColumns>;
  try {
    const batch = messages.map(({ id, webhookId, dedupe, username, avatarUrl, content, embeds, flags }) => ({
      id,
      webhookId,
      deliveryId: dedupe?.deliveryId ?? null,
      source: dedupe?.source ?? null,
      username,
      avatarUrl,
      content,
      embeds,
      flags,
    }));
    const { rows } = await db.query<AddedColumns>({ name: 'webhook-messages-store', text: STORE_MANY, values: [JSON.stringify(batch)] });
    inserted = new Map(rows.map((row) => [row.id, row]));
  } catch (error) {
    if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION && messages.length === 1) return [{ channelGone: true }];
    throw error;
  }
  return Promise.all(
    messages.map(async (message) => {
      const added = inserted.get(message.id);
      return added ? { stored: storedRow(message, added), inserted: true } : notInserted(db, message);
    }),
  );
}
