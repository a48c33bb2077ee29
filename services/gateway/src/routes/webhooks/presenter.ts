import { z } from 'zod';
import { apiSchema, presentUserPartial, userPartialResponseSchema } from '@switchboard/contracts';
import type { Webhook, WebhookWithCreator } from '@switchboard/db';

/** WebhookTokenResponse: what the token routes answer (no `user`). */
export const webhookTokenResponseSchema = apiSchema(
  'WebhookByToken',
  z.object({
    id: z.string(),
    /**
     * Not in Fluxer's response (docs/decisions.md#fluxer-webhook-resource), but Discord's has it and discord.py reads
     * `data['type']` unconditionally; an extra key costs Fluxer clients nothing.
     */
    type: z.number().int(),
    guild_id: z.string(),
    channel_id: z.string(),
    name: z.string(),
    avatar: z.string().nullable(),
    token: z.string(),
  }),
);

export type WebhookTokenResponse = z.output<typeof webhookTokenResponseSchema>;

/** WebhookResponse: the token response plus the creator as `user`. */
export const webhookResponseSchema = apiSchema(
  'Webhook',
  webhookTokenResponseSchema.extend({
    /** Absent once the creating user was deleted (Fluxer would fail with a 500). */
    user: userPartialResponseSchema.optional(),
  }),
);

export type WebhookResponse = z.output<typeof webhookResponseSchema>;

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
