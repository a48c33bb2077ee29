import { z } from 'zod';
import { apiSchema, snowflakeSchema } from '@switchboard/contracts';
import { webhookTokenResponseSchema } from '../../webhooks/presenter.ts';

/** `POST /admin/webhooks/list`: the webhooks of one guild or of one channel, exactly one of the two. */
export const listWebhooksSchema = z
  .object({ guild_id: snowflakeSchema.optional(), channel_id: snowflakeSchema.optional() })
  .refine((body) => (body.guild_id === undefined) !== (body.channel_id === undefined), {
    message: 'Give either guild_id or channel_id.',
    path: ['guild_id'],
  });

/** What an operator sees of a webhook: the token routes' fields but the token, and whether it has a secret (never the secret). */
export const adminWebhookResponseSchema = apiSchema(
  'AdminWebhook',
  webhookTokenResponseSchema.omit({ token: true }).extend({
    creator_id: z.string().nullable(),
    signed: z.boolean(),
    created_at: z.iso.datetime(),
  }),
);

export const adminWebhookListResponseSchema = apiSchema(
  'AdminWebhookList',
  z.object({ webhooks: z.array(adminWebhookResponseSchema) }),
);
