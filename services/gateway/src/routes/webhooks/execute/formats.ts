import type { Request, Response } from 'express';
import type { RateLimitBucketName, WebhookDeliveryInput, WebhookFormat } from '@switchboard/contracts';
import type { z } from 'zod';
import { ApiError, issuesToItems } from '@switchboard/http/errors';
import {
  chatAppBodySchema,
  codeHostBodySchema,
  codeHostReadPart,
  enforceMessageLimits,
  errorTrackerBodySchema,
  errorTrackerReadPart,
  executeBodySchema,
  renderChatApp,
  renderExecute,
  verifyGitHubSignature,
  verifySentrySignature,
  type DirectOutcome,
} from '@switchboard/webhook-formats';

type DeliveryKey = 'webhookId' | 'messageId' | 'deliveryId' | 'body';

/** The job fields that depend on the format (the headers its transformer reads), per format. */
export type FormatFields = WebhookDeliveryInput extends infer Input
  ? Input extends unknown
    ? Omit<Input, DeliveryKey>
    : never
  : never;

/**
 * What differs between the execution routes. Every route runs the same steps in the same
 * order (rate limit, path, token → 404, body read, `parse` → 400, `verify` → 401, `accept`
 * → 400, dedupe, enqueue); each format fills in its parts.
 */
export interface ExecutionFormat<Parsed = unknown> {
  name: WebhookFormat;
  /** Path suffixes after `/v1/webhooks/:webhook_id/:token` (`''` is plain execute). */
  paths: readonly string[];
  bucket: RateLimitBucketName;
  /** The schema `parse` validates with; the OpenAPI document describes the body from it. */
  body: z.ZodType;
  /** Body validation, after the token check (a bad body with a bad token is 404, unread). */
  parse(value: unknown): Parsed;
  /** Checks that need the webhook's signature checked first (an unsigned empty body is 401). */
  accept?(parsed: Parsed): void;
  /** Signature check when the webhook has a secret; false is 401. */
  verify?(secret: string, raw: Buffer, req: Request): boolean;
  /**
   * What of a body the job carries: the part the worker's transformer reads, for formats whose
   * payloads are mostly never read (on the event loop or on a parse thread). The whole body
   * when absent.
   */
  readPart?(value: unknown, fields: FormatFields): unknown;
  /** Dedupe key of the delivery, if the sender gives one. */
  deliveryId?(req: Request): string | undefined;
  fields(req: Request): FormatFields;
  /** The success answer of routes that do not wait. */
  respond(res: Response): void;
}

/** A header's value cut to what the job contract keeps (event names are short). */
function header(req: Request, name: string): string | undefined {
  return req.get(name)?.trim().slice(0, 200);
}

const noContent = (res: Response) => void res.status(204).end();

/**
 * Body validation, 400 `INVALID_FORM_BODY` with field paths on failure. Unlike `validate`, no
 * deep copy dropping `""` first: the format schemas treat `""` as absent where a field is
 * optional, and copying a 25 MiB code-host payload just to compare strings costs real time.
 */
function parseBody<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ApiError('INVALID_FORM_BODY', { errors: issuesToItems(result.error.issues) });
}

/** A format's `body` and the `parse` that validates with it: one schema for both. */
function bodyParsedBy<Schema extends z.ZodType>(
  schema: Schema,
): { body: Schema; parse: (value: unknown) => z.output<Schema> } {
  return { body: schema, parse: (value) => parseBody(schema, value) };
}

/** A direct message (plain, chat app) must post something: else 400 CANNOT_SEND_EMPTY_MESSAGE. */
function requireMessage(outcome: DirectOutcome): void {
  if (outcome.kind === 'rejected') throw new ApiError(outcome.code);
}

export const plainFormat: ExecutionFormat<ReturnType<typeof executeBodySchema.parse>> = {
  name: 'plain',
  paths: [''],
  bucket: 'webhook:execute::webhook_id',
  ...bodyParsedBy(executeBodySchema),
  accept: (parsed) => {
    const outcome = renderExecute(parsed);
    requireMessage(outcome);
    if (outcome.kind !== 'message') return;
    // Content is counted after normalisation, against the webhook limit (2000), after lookup.
    const limited = enforceMessageLimits(outcome.message, 'reject');
    if (!limited.ok) throw new ApiError('INVALID_FORM_BODY', { errors: limited.errors });
  },
  fields: () => ({ format: 'plain' }),
  respond: noContent,
};

export const codeHostFormat: ExecutionFormat = {
  name: 'codehost',
  paths: ['/codehost', '/github'],
  bucket: 'webhook:codehost::webhook_id',
  ...bodyParsedBy(codeHostBodySchema),
  verify: (secret, raw, req) => verifyGitHubSignature(secret, raw, req.get('x-hub-signature-256')),
  readPart: (value, fields) => codeHostReadPart(fields.format === 'codehost' ? fields.event : undefined, value),
  deliveryId: (req) => header(req, 'x-github-delivery') || undefined,
  // A missing X-GitHub-Event is the event '' (docs/decisions.md#fluxer-code-host-deliveries): 204 and no message.
  fields: (req) => ({ format: 'codehost', event: header(req, 'x-github-event') ?? '' }),
  respond: noContent,
};

export const errorTrackerFormat: ExecutionFormat = {
  name: 'errortracker',
  paths: ['/errortracker', '/sentry'],
  bucket: 'webhook:codehost::webhook_id',
  ...bodyParsedBy(errorTrackerBodySchema),
  verify: (secret, raw, req) => verifySentrySignature(secret, raw, req.get('sentry-hook-signature')),
  // The job's own fields, as the worker hands them to renderErrorTracker (render.ts).
  readPart: (value, fields) => (fields.format === 'errortracker' ? errorTrackerReadPart(fields, value) : value),
  fields: (req) => ({
    format: 'errortracker',
    resource: header(req, 'sentry-hook-resource') ?? null,
    fluxerEvent: header(req, 'x-sentry-event') ?? null,
  }),
  respond: noContent,
};

export const chatAppFormat: ExecutionFormat<ReturnType<typeof chatAppBodySchema.parse>> = {
  name: 'chatapp',
  paths: ['/chatapp', '/slack'],
  bucket: 'webhook:execute::webhook_id',
  ...bodyParsedBy(chatAppBodySchema),
  accept: (parsed) => requireMessage(renderChatApp(parsed)),
  fields: () => ({ format: 'chatapp' }),
  // Slack's answer, byte for byte (docs/decisions.md#fluxer-chat-app-deliveries).
  respond: (res) => void res.status(200).type('text/html; charset=utf-8').send('ok'),
};

/** Every format by name, for the parse threads (body-check-worker.ts), which get only the name. */
export const FORMATS: Record<WebhookFormat, ExecutionFormat> = {
  plain: plainFormat,
  codehost: codeHostFormat,
  errortracker: errorTrackerFormat,
  chatapp: chatAppFormat,
};
