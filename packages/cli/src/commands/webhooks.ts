import { snowflakeSchema } from '@switchboard/contracts';
import { exactlyOneOf } from '../args.ts';
import { deleteByIdCommand, getByIdCommand } from '../by-id-commands.ts';
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
  schema: exactlyOneOf({ guild: snowflakeSchema.optional(), channel: snowflakeSchema.optional() }, 'guild', 'channel'),
  run: (options, api) =>
    api.request<{ webhooks: Array<Record<string, unknown>> }>('POST', '/v1/admin/webhooks/list', {
      body: options.guild ? { guild_id: options.guild } : { channel_id: options.channel },
    }),
  render: (result) => table(result.webhooks, WEBHOOK_COLUMNS, '(no webhooks)'),
});

const webhookId = { name: 'webhook-id', description: "the webhook's id" };
const webhookPath = (id: string) => `/v1/admin/webhooks/${id}`;

export const webhooksGetCommand = getByIdCommand({
  name: 'webhooks get',
  summary: 'one webhook (never its token or secret)',
  id: webhookId,
  path: webhookPath,
});

export const webhooksDeleteCommand = deleteByIdCommand({
  name: 'webhooks delete',
  summary: 'delete a webhook; its token stops working on every gateway at once',
  id: webhookId,
  path: webhookPath,
  done: 'deleted',
});
