import { snowflakeTimestamp } from '@switchboard/snowflake';
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
  /** Name and avatar snapshot taken when the webhook posted (webhook reference §4). */
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

export interface MessageAuthorResponse {
  id: string;
  username: string;
  discriminator: string;
  global_name?: string | null;
  avatar: string | null;
  avatar_color?: number | null;
  bot?: true;
  system?: true;
  flags: number;
  /** Only on webhook messages that named a remote avatar (not a Discord field; extra keys are harmless). */
  avatar_url?: string;
}

/** A message as Discord and Fluxer clients read it (webhook reference §4). */
export interface MessageResponse {
  id: string;
  type: number;
  content: string;
  channel_id: string;
  guild_id?: string;
  author: MessageAuthorResponse;
  attachments: unknown[];
  embeds: unknown[];
  mentions: unknown[];
  mention_roles: string[];
  mention_everyone: boolean;
  pinned: boolean;
  tts: boolean;
  /** ISO-8601 UTC, derived from the id as Discord and Fluxer do. */
  timestamp: string;
  edited_timestamp: string | null;
  flags: number;
  /** Set on messages a webhook posted: the author is then the webhook. */
  webhook_id?: string;
}

/** What Discord shows for a message whose author's account is gone. */
const DELETED_AUTHOR: MessageAuthorResponse = { id: '0', username: 'Deleted User', discriminator: '0000', avatar: null, flags: 0 };

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
 * Mentions are always empty: webhook messages never ping (decisions §9).
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
