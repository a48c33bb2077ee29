import { z } from 'zod';
import { snowflakeTimestamp } from '@switchboard/snowflake/ids';
import { apiSchema } from './api-schemas.ts';
import { presentUserPartial, type UserPartialRecord } from './users.ts';

/**
 * What the message presenter needs: a `messages` row plus its author's user row. The db
 * repository's StoredMessage has this shape; the webhook worker can build one in memory for
 * its `wait=true` answer.
 */
export interface MessageRecord {
  id: string;
  channelId: string;
  guildId: string | null;
  /** The author's user row; null for webhook messages and for deleted authors. */
  author: UserPartialRecord | null;
  webhookId: string | null;
  /** Name and avatar snapshot taken when the webhook posted (docs/decisions.md#fluxer-webhook-messages). */
  webhookName: string | null;
  webhookAvatarHash: string | null;
  /** A remote avatar given by the payload (avatar_url, icon_url), stored and never fetched. */
  webhookAvatarUrl: string | null;
  type: number;
  content: string;
  /** Stored Discord-shaped embeds (`type: 'rich'`), presented as stored. */
  embeds: unknown[];
  flags: number;
  editedAt: Date | null;
}

export const messageAuthorResponseSchema = apiSchema(
  'MessageAuthor',
  z.object({
    id: z.string(),
    username: z.string(),
    discriminator: z.string(),
    global_name: z.string().nullable().optional(),
    avatar: z.string().nullable(),
    avatar_color: z.number().int().nullable().optional(),
    bot: z.literal(true).optional(),
    system: z.literal(true).optional(),
    flags: z.number().int(),
    /** Only on webhook messages that named a remote avatar (not a Discord field; extra keys are harmless). */
    avatar_url: z.string().optional(),
  }),
);

export type MessageAuthorResponse = z.output<typeof messageAuthorResponseSchema>;

/**
 * A message as Discord and Fluxer clients read it (docs/decisions.md#fluxer-webhook-messages). A schema so the
 * gateway's OpenAPI document shows the very type the presenter is checked against.
 */
export const messageResponseSchema = apiSchema(
  'Message',
  z.object({
    id: z.string(),
    type: z.number().int(),
    content: z.string(),
    channel_id: z.string(),
    guild_id: z.string().optional(),
    author: messageAuthorResponseSchema,
    attachments: z.array(z.unknown()),
    embeds: z.array(z.unknown()),
    mentions: z.array(z.unknown()),
    mention_roles: z.array(z.string()),
    mention_everyone: z.boolean(),
    pinned: z.boolean(),
    tts: z.boolean(),
    /** ISO-8601 UTC, derived from the id as Discord and Fluxer do. */
    timestamp: z.string(),
    edited_timestamp: z.string().nullable(),
    flags: z.number().int(),
    /** Set on messages a webhook posted: the author is then the webhook. */
    webhook_id: z.string().optional(),
  }),
);

export type MessageResponse = z.output<typeof messageResponseSchema>;

/** What Discord shows for a message whose author's account is gone. */
const DELETED_AUTHOR: MessageAuthorResponse = {
  id: '0',
  username: 'Deleted User',
  discriminator: '0000',
  avatar: null,
  flags: 0,
};

/** The synthetic author of a webhook message: Fluxer's `{id: webhook id, …, bot: true}`. */
function webhookAuthor(message: MessageRecord & { webhookId: string }): MessageAuthorResponse {
  return {
    id: message.webhookId,
    username: message.webhookName ?? 'Webhook',
    discriminator: '0000',
    avatar: message.webhookAvatarHash,
    bot: true,
    flags: 0,
    ...(message.webhookAvatarUrl ? { avatar_url: message.webhookAvatarUrl } : {}),
  };
}

function authorOf(message: MessageRecord): MessageAuthorResponse {
  if (message.webhookId !== null) return webhookAuthor({ ...message, webhookId: message.webhookId });
  return message.author ? presentUserPartial(message.author) : DELETED_AUTHOR;
}

/**
 * The one message presenter: the gateway's GET /channels/{id}/messages and the webhook
 * worker's `wait=true` answer both use it, so the two shapes cannot drift apart.
 * Mentions are always empty: webhook messages never ping (docs/decisions.md#message-limits).
 */
export function presentMessage(message: MessageRecord): MessageResponse {
  return {
    id: message.id,
    type: message.type,
    content: message.content,
    channel_id: message.channelId,
    ...(message.guildId !== null ? { guild_id: message.guildId } : {}),
    author: authorOf(message),
    attachments: [],
    embeds: message.embeds,
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    timestamp: snowflakeTimestamp(message.id).toISOString(),
    edited_timestamp: message.editedAt ? message.editedAt.toISOString() : null,
    flags: message.flags,
    ...(message.webhookId !== null ? { webhook_id: message.webhookId } : {}),
  };
}
