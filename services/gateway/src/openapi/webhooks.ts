import { z } from 'zod';
import type { ErrorCode, WebhookFormat } from '@switchboard/contracts';
import { messageResponseSchema } from '@switchboard/contracts';
import { editMessageBodySchema } from '@switchboard/webhook-formats';
import { FORMATS } from '../routes/webhooks/execute/formats.ts';
import { messageParams } from '../routes/webhooks/token-messages.ts';
import { webhookResponseSchema, webhookTokenResponseSchema } from '../routes/webhooks/presenter.ts';
import {
  createWebhookBody,
  tokenUpdateWebhookBody,
  updateWebhookBody,
  webhookTokenParams,
} from '../routes/webhooks/schemas.ts';
import { BODY_READ, EVERY_ROUTE } from './errors.ts';
import type { JsonSchema } from './json-schema.ts';
import { NO_CONTENT, presented, type OperationSpec, type SuccessSpec } from './operation.ts';

const TOKEN_PATH = '/v1/webhooks/:webhook_id/:token';
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
const SIGNED_ONLY =
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
        path: channel,
        summary: "A channel's webhooks",
        success: [presented('WebhookResponse[]', z.array(webhookResponseSchema))],
      },
      ['UNKNOWN_CHANNEL'],
    ),
    managing(
      {
        method: 'post',
        path: channel,
        summary: 'Create a webhook',
        description: `Text and announcement channels only (400 INVALID_CHANNEL_TYPE otherwise). ${SIGNED_ONLY}`,
        body: createWebhookBody,
        success: [presented('WebhookResponse', webhookResponseSchema)],
      },
      ['UNKNOWN_CHANNEL', 'INVALID_CHANNEL_TYPE', 'MAX_WEBHOOKS', 'MAX_WEBHOOKS_PER_GUILD', ...BODY_READ],
    ),
    managing(
      {
        method: 'get',
        path: '/v1/guilds/:guild_id/webhooks',
        summary: "A guild's webhooks",
        success: [presented('WebhookResponse[]', z.array(webhookResponseSchema))],
      },
      ['UNKNOWN_GUILD'],
    ),
    managing(
      {
        method: 'get',
        path: webhook,
        summary: 'A webhook',
        success: [presented('WebhookResponse', webhookResponseSchema)],
      },
      ['UNKNOWN_WEBHOOK'],
    ),
    managing(
      {
        method: 'patch',
        path: webhook,
        summary: 'Update a webhook (or move it to another channel)',
        description: SIGNED_ONLY,
        body: updateWebhookBody,
        success: [presented('WebhookResponse', webhookResponseSchema)],
      },
      ['UNKNOWN_WEBHOOK', 'UNKNOWN_CHANNEL', 'INVALID_CHANNEL_TYPE', 'MAX_WEBHOOKS', ...BODY_READ],
    ),
    managing({ method: 'delete', path: webhook, summary: 'Delete a webhook', success: [NO_CONTENT] }, [
      'UNKNOWN_WEBHOOK',
    ]),
    byToken({
      method: 'get',
      path: TOKEN_PATH,
      summary: 'A webhook, by its token',
      params: webhookTokenParams,
      success: [presented('WebhookTokenResponse', webhookTokenResponseSchema)],
    }),
    byToken(
      {
        method: 'patch',
        path: TOKEN_PATH,
        summary: 'Update a webhook, by its token',
        params: webhookTokenParams,
        body: tokenUpdateWebhookBody,
        success: [presented('WebhookTokenResponse', webhookTokenResponseSchema)],
      },
      BODY_READ,
    ),
    byToken({
      method: 'delete',
      path: TOKEN_PATH,
      summary: 'Delete a webhook, by its token',
      params: webhookTokenParams,
      success: [NO_CONTENT],
    }),
    byToken(
      {
        method: 'get',
        path: MESSAGE_PATH,
        summary: "One of the webhook's messages",
        params: messageParams,
        success: [presented('Message', messageResponseSchema)],
      },
      ['UNKNOWN_MESSAGE'],
    ),
    byToken(
      {
        method: 'patch',
        path: MESSAGE_PATH,
        summary: "Edit one of the webhook's messages",
        description: SIGNED_ONLY,
        params: messageParams,
        body: editMessageBodySchema,
        success: [presented('Message', messageResponseSchema)],
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

/** What an execution format answers beyond the shared chain, by format: TypeScript keeps it complete. */
const EXECUTION: Record<
  WebhookFormat,
  {
    summary: string;
    description: string;
    success: readonly SuccessSpec[];
    errors: readonly ErrorCode[];
    form: JsonSchema;
  }
> = {
  plain: {
    summary: 'Execute a webhook (`?wait=true` answers with the stored message)',
    description: `Unsigned: 401 for a webhook with a secret. ${SIGNED_ONLY}`,
    success: [
      { status: 204, description: 'Accepted.' },
      presented('With `?wait=true`: the message, once stored.', messageResponseSchema),
    ],
    errors: [
      'CANNOT_SEND_EMPTY_MESSAGE',
      'INVALID_API_ORIGIN',
      'UNKNOWN_CHANNEL',
      'MESSAGE_DELIVERY_TIMEOUT',
      'INVALID_WEBHOOK_SIGNATURE',
    ],
    form: payloadForm('`payload_json` (or `payload`): the JSON body as a string.'),
  },
  codehost: {
    summary: 'Execute a webhook with a code-host (GitHub) event; `X-GitHub-Event` names it',
    description: 'Signed with `X-Hub-Signature-256` when the webhook has a secret (401 otherwise).',
    success: [{ status: 204, description: 'Accepted (events without a message too).' }],
    errors: ['INVALID_WEBHOOK_SIGNATURE'],
    form: payloadForm('`payload`: the JSON event as a string (GitHub form delivery).'),
  },
  errortracker: {
    summary: 'Execute a webhook with an error-tracker (Sentry) event',
    description: 'Signed with `Sentry-Hook-Signature` when the webhook has a secret (401 otherwise).',
    success: [{ status: 204, description: 'Accepted.' }],
    errors: ['INVALID_WEBHOOK_SIGNATURE'],
    form: payloadForm('`payload_json` (or `payload`): the JSON body as a string.'),
  },
  chatapp: {
    summary: 'Execute a webhook with a chat-app (Slack) message',
    description: `Unsigned: 401 for a webhook with a secret. ${SIGNED_ONLY}`,
    success: [
      {
        status: 200,
        description: 'Accepted: `ok`, as Slack answers.',
        contentType: 'text/html',
        json: { type: 'string', const: 'ok' },
      },
    ],
    errors: ['CANNOT_SEND_EMPTY_MESSAGE', 'INVALID_WEBHOOK_SIGNATURE'],
    form: payloadForm('`payload_json` (or `payload`): the JSON body as a string.'),
  },
};

/** Plain execute's `?wait=` as wantsWait (execute/handler.ts) reads it: any other value does not wait. */
const waitQuery = z.object({ wait: z.enum(['true', 'True', '1']).optional() });

function payloadForm(description: string): JsonSchema {
  return { type: 'object', description, properties: { payload_json: { type: 'string' }, payload: { type: 'string' } } };
}

/**
 * Every execution route, read from the formats executeRouter mounts: each path suffix (the
 * interface's word and the other platform's alias) with the format's own body schema. The chain:
 * failure budget and rate limit → path (400) → token (404, before the body is read) → body
 * budget (503) → body read (413, 415, 400; 408 when it stops arriving) → body (400) →
 * signature (401).
 */
export function executeOperations(): OperationSpec[] {
  const chain: readonly ErrorCode[] = [
    ...EVERY_ROUTE,
    'RATE_LIMITED',
    'UNKNOWN_WEBHOOK',
    ...BODY_READ,
    'REQUEST_TIMEOUT',
  ];
  return Object.values(FORMATS).flatMap((format) => {
    const doc = EXECUTION[format.name];
    return format.paths.map(
      (suffix): OperationSpec => ({
        method: 'post',
        path: `${TOKEN_PATH}${suffix}`,
        summary:
          suffix === '' || suffix === `/${format.name}` ? doc.summary : `${doc.summary} (alias of /${format.name})`,
        description: doc.description,
        tag: 'webhook execution',
        security: 'none',
        params: webhookTokenParams,
        ...(format.name === 'plain' ? { query: waitQuery } : {}),
        body: format.body,
        formBody: doc.form,
        success: doc.success,
        errors: [...chain, ...doc.errors],
        extensions: { 'x-rate-limit-bucket': format.bucket },
      }),
    );
  });
}
