import { presentUserPartial, type UserPartialResponse } from '@switchboard/contracts';
import type { Webhook, WebhookWithCreator } from '@switchboard/db';

/** WebhookTokenResponse: what the token routes answer (no `user`). */
export interface WebhookTokenResponse {
  id: string;
  /**
   * Not in Fluxer's response (reference §2.1), but Discord's has it and discord.py reads
   * `data['type']` unconditionally; an extra key costs Fluxer clients nothing.
   */
  type: number;
  guild_id: string;
  channel_id: string;
  name: string;
  avatar: string | null;
  token: string;
}

/** WebhookResponse: the token response plus the creator as `user`. */
export interface WebhookResponse extends WebhookTokenResponse {
  /** Absent once the creating user was deleted (Fluxer would fail with a 500). */
  user?: UserPartialResponse;
}

export function presentWebhookForToken(webhook: Webhook): WebhookTokenResponse {
  return {
    id: webhook.id,
    type: webhook.type,
    guild_id: webhook.guildId,
    channel_id: webhook.channelId,
    name: webhook.name,
    avatar: webhook.avatarHash,
    token: webhook.token,
  };
}

export function presentWebhook(webhook: WebhookWithCreator): WebhookResponse {
  return {
    ...presentWebhookForToken(webhook),
    ...(webhook.creator ? { user: presentUserPartial(webhook.creator) } : {}),
  };
}
