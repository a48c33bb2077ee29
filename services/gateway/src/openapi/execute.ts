import { z } from 'zod';
import { messageResponseSchema, type ErrorCode, type WebhookFormat } from '@switchboard/contracts';
import { FORMATS } from '../routes/webhooks/execute/formats.ts';
import { webhookTokenParams } from '../routes/webhooks/schemas.ts';
import { BODY_READ, EVERY_ROUTE } from './errors.ts';
import { MESSAGE } from './examples/index.ts';
import type { JsonSchema } from './json-schema.ts';
import { presented, type OperationSpec, type SuccessSpec } from './operation.ts';
import { SIGNED_ONLY, TOKEN_PATH } from './webhooks.ts';

/** What an execution format answers beyond the shared chain, by format: TypeScript keeps it complete. */
const EXECUTION: Record<
  WebhookFormat,
  {
    summary: string;
    description: string;
    success: readonly SuccessSpec[];
    errors: readonly ErrorCode[];
    form: JsonSchema;
    /** A JSON body this format's senders post. */
    example: unknown;
  }
> = {
  plain: {
    summary: 'Execute a webhook (`?wait=true` answers with the stored message)',
    description: `Unsigned: 401 for a webhook with a secret. ${SIGNED_ONLY}`,
    success: [
      { status: 204, description: 'Accepted.' },
      presented('With `?wait=true`: the message, once stored.', messageResponseSchema, MESSAGE),
    ],
    errors: [
      'CANNOT_SEND_EMPTY_MESSAGE',
      'INVALID_API_ORIGIN',
      'UNKNOWN_CHANNEL',
      'MESSAGE_DELIVERY_TIMEOUT',
      'INVALID_WEBHOOK_SIGNATURE',
    ],
    form: payloadForm('`payload_json` (or `payload`): the JSON body as a string.'),
    example: { content: MESSAGE.content, username: 'CI' },
  },
  codehost: {
    summary: 'Execute a webhook with a code-host (GitHub) event; `X-GitHub-Event` names it',
    description: 'Signed with `X-Hub-Signature-256` when the webhook has a secret (401 otherwise).',
    success: [{ status: 204, description: 'Accepted (events without a message too).' }],
    errors: ['INVALID_WEBHOOK_SIGNATURE'],
    form: payloadForm('`payload`: the JSON event as a string (GitHub form delivery).'),
    example: {
      zen: 'Keep it logically awesome.',
      hook_id: 4815162342,
      sender: { login: 'octocat' },
      repository: { full_name: 'octo-org/deploys' },
    },
  },
  errortracker: {
    summary: 'Execute a webhook with an error-tracker (Sentry) event',
    description: 'Signed with `Sentry-Hook-Signature` when the webhook has a secret (401 otherwise).',
    success: [{ status: 204, description: 'Accepted.' }],
    errors: ['INVALID_WEBHOOK_SIGNATURE'],
    form: payloadForm('`payload_json` (or `payload`): the JSON body as a string.'),
    example: { action: 'created', data: { issue: { title: 'TypeError: x is undefined' } }, actor: { name: 'Sentry' } },
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
        example: 'ok',
      },
    ],
    errors: ['CANNOT_SEND_EMPTY_MESSAGE', 'INVALID_WEBHOOK_SIGNATURE'],
    form: payloadForm('`payload_json` (or `payload`): the JSON body as a string.'),
    example: { text: 'Deploy finished :white_check_mark:' },
  },
};

/** Plain execute's `?wait=` as wantsWait (execute/handler.ts) reads it: any other value does not wait. */
const waitQuery = z.object({ wait: z.enum(['true', 'True', '1']).optional() });

/** Each execution path's operationId (Discord's names for its GitHub and Slack aliases). */
const EXECUTE_OPERATION_IDS: Record<string, string> = {
  '': 'execute_webhook',
  '/codehost': 'execute_codehost_webhook',
  '/github': 'execute_github_compatible_webhook',
  '/errortracker': 'execute_errortracker_webhook',
  '/sentry': 'execute_sentry_compatible_webhook',
  '/chatapp': 'execute_chatapp_webhook',
  '/slack': 'execute_slack_compatible_webhook',
};

function executeOperationId(suffix: string): string {
  const id = EXECUTE_OPERATION_IDS[suffix];
  if (id === undefined) throw new Error(`OpenAPI: no operationId for the execution path "${suffix}"`);
  return id;
}

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
        operationId: executeOperationId(suffix),
        path: `${TOKEN_PATH}${suffix}`,
        summary:
          suffix === '' || suffix === `/${format.name}` ? doc.summary : `${doc.summary} (alias of /${format.name})`,
        description: doc.description,
        tag: 'webhook execution',
        security: 'none',
        params: webhookTokenParams,
        ...(format.name === 'plain' ? { query: waitQuery } : {}),
        body: format.body,
        requestExample: doc.example,
        formBody: doc.form,
        success: doc.success,
        errors: [...chain, ...doc.errors],
        extensions: { 'x-rate-limit-bucket': format.bucket },
      }),
    );
  });
}
