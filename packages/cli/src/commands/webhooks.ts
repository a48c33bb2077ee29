import { z } from '@switchboard/config';
import { snowflakeSchema } from '@switchboard/contracts';
import { defineCommand } from '../command.ts';
import { table } from '../render.ts';

const WEBHOOK_COLUMNS = ['id', 'name', 'guild_id', 'channel_id', 'signed', 'creator_id', 'created_at'];

export const webhooksListCommand = defineCommand({
  name: 'webhooks list',
  summary: "a guild's or a channel's webhooks (never their tokens or secrets)",
  uses: 'api',
  options: {
    guild: { type: 'string', value: 'ID', description: "the guild's webhooks" },
    channel: { type: 'string', value: 'ID', description: "the channel's webhooks" },
  },
  schema: z
    .object({ guild: snowflakeSchema.optional(), channel: snowflakeSchema.optional() })
    .refine((o) => (o.guild === undefined) !== (o.channel === undefined), {
      message: 'give --guild or --channel',
      path: ['guild'],
    }),
  run: (options, api) =>
    api.request<{ webhooks: Array<Record<string, unknown>> }>('POST', '/v1/admin/webhooks/list', {
      body: options.guild ? { guild_id: options.guild } : { channel_id: options.channel },
    }),
  render: (result) => table(result.webhooks, WEBHOOK_COLUMNS, '(no webhooks)'),
});

export const webhooksGetCommand = defineCommand({
  name: 'webhooks get',
  summary: 'one webhook (never its token or secret)',
  uses: 'api',
  positionals: [{ name: 'webhook-id', description: "the webhook's id" }],
  schema: z.object({ 'webhook-id': snowflakeSchema }),
  run: (options, api) => api.request<Record<string, unknown>>('GET', `/v1/admin/webhooks/${options['webhook-id']}`),
});

export const webhooksDeleteCommand = defineCommand({
  name: 'webhooks delete',
  summary: 'delete a webhook; its token stops working on every gateway at once',
  uses: 'api',
  audited: true,
  positionals: [{ name: 'webhook-id', description: "the webhook's id" }],
  schema: z.object({ 'webhook-id': snowflakeSchema }),
  run: async (options, api) => {
    await api.request('DELETE', `/v1/admin/webhooks/${options['webhook-id']}`);
    return { deleted: options['webhook-id'] };
  },
});
