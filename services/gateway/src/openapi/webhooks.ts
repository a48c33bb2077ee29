import { z } from 'zod';
import type { ErrorCode } from '@switchboard/contracts';
import { messageResponseSchema } from '@switchboard/contracts';
import { editMessageBodySchema } from '@switchboard/webhook-formats';
import { messageParams } from '../routes/webhooks/token-messages.ts';
import { webhookResponseSchema, webhookTokenResponseSchema } from '../routes/webhooks/presenter.ts';
import {
  createWebhookBody,
  tokenUpdateWebhookBody,
  updateWebhookBody,
  webhookTokenParams,
} from '../routes/webhooks/schemas.ts';
import { BODY_READ, EVERY_ROUTE } from './errors.ts';
import { IDS, MESSAGE, WEBHOOK, WEBHOOK_BY_TOKEN } from './examples/index.ts';
import { NO_CONTENT, presented, type OperationSpec } from './operation.ts';

export const TOKEN_PATH = '/v1/webhooks/:webhook_id/:token';
const MESSAGE_PATH = `${TOKEN_PATH}/messages/:message_id`;

/**
 * The id-addressed management chain (webhooksRouter): user token → rate limit → 401 → path id
 * (400) → the subject's guild and MANAGE_WEBHOOKS (404, 403).
 */
const MANAGING: readonly ErrorCode[] = [
  ...EVERY_ROUTE,
  'RATE_LIMITED',
  'UNAUTHORIZED',
  'INVALID_FORM_BODY',
  'MISSING_ACCESS',
  'MISSING_PERMISSIONS',
];
/** Token-addressed routes: the token in the path is the credential (404 when it names nothing). */
const BY_TOKEN: readonly ErrorCode[] = [...EVERY_ROUTE, 'RATE_LIMITED', 'INVALID_FORM_BODY', 'UNKNOWN_WEBHOOK'];

function managing(
  spec: Omit<OperationSpec, 'tag' | 'security' | 'errors'>,
  errors: readonly ErrorCode[],
): OperationSpec {
  return { ...spec, tag: 'webhooks', security: 'userToken', errors: [...MANAGING, ...errors] };
}

function byToken(
  spec: Omit<OperationSpec, 'tag' | 'security' | 'errors'>,
  errors: readonly ErrorCode[] = [],
): OperationSpec {
  return { ...spec, tag: 'webhooks', security: 'none', errors: [...BY_TOKEN, ...errors] };
}

/** What a secret means, on the routes that set it and on those it closes. */
export const SIGNED_ONLY =
  'A webhook with a `secret` is signed-only: its code-host and error-tracker routes need a valid signature, and plain execute, ' +
  'the chat-app routes and message edits and deletes by token answer 401 INVALID_WEBHOOK_SIGNATURE, so the token alone cannot post as the signed sender.';

/**
 * Webhook management by id (user token) and by token
 * (docs/decisions.md#fluxer-webhook-routes-and-check-order, #fluxer-webhook-resource).
 */
export function webhookOperations(): OperationSpec[] {
  const channel = '/v1/channels/:channel_id/webhooks';
  const webhook = '/v1/webhooks/:webhook_id';
  return [
    managing(
      {
        method: 'get',
        operationId: 'list_channel_webhooks',
        path: channel,
        summary: "A channel's webhooks",
        success: [presented("The channel's webhooks.", z.array(webhookResponseSchema), [WEBHOOK])],
      },
      ['UNKNOWN_CHANNEL'],
    ),
    managing(
      {
        method: 'post',
        operationId: 'create_webhook',
        path: channel,
        summary: 'Create a webhook',
        description: `Text and announcement channels only (400 INVALID_CHANNEL_TYPE otherwise). ${SIGNED_ONLY}`,
        body: createWebhookBody,
        requestExample: { name: 'Deploys' },
        success: [presented('The new webhook.', webhookResponseSchema, WEBHOOK)],
      },
      ['UNKNOWN_CHANNEL', 'INVALID_CHANNEL_TYPE', 'MAX_WEBHOOKS', 'MAX_WEBHOOKS_PER_GUILD', ...BODY_READ],
    ),
    managing(
      {
        method: 'get',
        operationId: 'get_guild_webhooks',
        path: '/v1/guilds/:guild_id/webhooks',
        summary: "A guild's webhooks",
        success: [presented("The guild's webhooks.", z.array(webhookResponseSchema), [WEBHOOK])],
      },
      ['UNKNOWN_GUILD'],
    ),
    managing(
      {
        method: 'get',
        operationId: 'get_webhook',
        path: webhook,
        summary: 'A webhook',
        success: [presented('The webhook.', webhookResponseSchema, WEBHOOK)],
      },
      ['UNKNOWN_WEBHOOK'],
    ),
    managing(
      {
        method: 'patch',
        operationId: 'update_webhook',
        path: webhook,
        summary: 'Update a webhook (or move it to another channel)',
        description: SIGNED_ONLY,
        body: updateWebhookBody,
        requestExample: { name: 'Releases', channel_id: IDS.movedToChannel },
        success: [
          presented('The webhook as it now is.', webhookResponseSchema, {
            ...WEBHOOK,
            name: 'Releases',
            channel_id: IDS.movedToChannel,
          }),
        ],
      },
      ['UNKNOWN_WEBHOOK', 'UNKNOWN_CHANNEL', 'INVALID_CHANNEL_TYPE', 'MAX_WEBHOOKS', ...BODY_READ],
    ),
    managing(
      {
        method: 'delete',
        operationId: 'delete_webhook',
        path: webhook,
        summary: 'Delete a webhook',
        success: [NO_CONTENT],
      },
      ['UNKNOWN_WEBHOOK'],
    ),
    byToken({
      method: 'get',
      operationId: 'get_webhook_by_token',
      path: TOKEN_PATH,
      summary: 'A webhook, by its token',
      params: webhookTokenParams,
      success: [presented('The webhook, without its creator.', webhookTokenResponseSchema, WEBHOOK_BY_TOKEN)],
    }),
    byToken(
      {
        method: 'patch',
        operationId: 'update_webhook_by_token',
        path: TOKEN_PATH,
        summary: 'Update a webhook, by its token',
        params: webhookTokenParams,
        body: tokenUpdateWebhookBody,
        requestExample: { name: 'Releases' },
        success: [
          presented('The webhook as it now is.', webhookTokenResponseSchema, { ...WEBHOOK_BY_TOKEN, name: 'Releases' }),
        ],
      },
      BODY_READ,
    ),
    byToken({
      method: 'delete',
      operationId: 'delete_webhook_by_token',
      path: TOKEN_PATH,
      summary: 'Delete a webhook, by its token',
      params: webhookTokenParams,
      success: [NO_CONTENT],
    }),
    byToken(
      {
        method: 'get',
        operationId: 'get_webhook_message',
        path: MESSAGE_PATH,
        summary: "One of the webhook's messages",
        params: messageParams,
        success: [presented('The message.', messageResponseSchema, MESSAGE)],
      },
      ['UNKNOWN_MESSAGE'],
    ),
    byToken(
      {
        method: 'patch',
        operationId: 'update_webhook_message',
        path: MESSAGE_PATH,
        summary: "Edit one of the webhook's messages",
        description: SIGNED_ONLY,
        params: messageParams,
        body: editMessageBodySchema,
        requestExample: { content: 'Deployed `main` to production (rolled back).' },
        success: [
          presented('The message as it now is.', messageResponseSchema, {
            ...MESSAGE,
            content: 'Deployed `main` to production (rolled back).',
            edited_timestamp: '2026-11-02T09:41:00.000Z',
          }),
        ],
      },
      [
        'UNKNOWN_MESSAGE',
        'CANNOT_SEND_EMPTY_MESSAGE',
        'MESSAGE_DELIVERY_TIMEOUT',
        'INVALID_WEBHOOK_SIGNATURE',
        ...BODY_READ,
      ],
    ),
    byToken(
      {
        method: 'delete',
        operationId: 'delete_webhook_message',
        path: MESSAGE_PATH,
        summary: "Delete one of the webhook's messages",
        description: SIGNED_ONLY,
        params: messageParams,
        success: [NO_CONTENT],
      },
      ['UNKNOWN_MESSAGE', 'MESSAGE_DELIVERY_TIMEOUT', 'INVALID_WEBHOOK_SIGNATURE'],
    ),
  ];
}
