import { z } from 'zod';
import { apiSchema, snowflakeSchema } from '@switchboard/contracts';

/** `POST /admin/webhooks/list`: the webhooks of one guild or of one channel, exactly one of the two. */
export const listWebhooksSchema = z
  .object({ guild_id: snowflakeSchema.optional(), channel_id: snowflakeSchema.optional() })
  .refine((body) => (body.guild_id === undefined) !== (body.channel_id === undefined), {
    message: 'Give either guild_id or channel_id.',
    path: ['guild_id'],
  });

/** What an operator sees of a webhook: never its token or secret, only whether it has a secret. */
export const adminWebhookResponseSchema = apiSchema(
  'AdminWebhook',
  z.object({
    id: z.string(),
    type: z.number().int(),
    guild_id: z.string(),
    channel_id: z.string(),
    name: z.string(),
    avatar: z.string().nullable(),
    creator_id: z.string().nullable(),
    signed: z.boolean(),
    created_at: z.iso.datetime(),
  }),
);

export const adminWebhookListResponseSchema = apiSchema(
  'AdminWebhookList',
  z.object({ webhooks: z.array(adminWebhookResponseSchema) }),
);
