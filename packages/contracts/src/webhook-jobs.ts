import { z } from 'zod';
import { defineJob, QUEUES } from './jobs.ts';
import { snowflakeSchema } from './primitives.ts';

/**
 * The webhook execution routes (docs/decisions.md#webhook-execution): which transformer turns a body into a message.
 */
export const WEBHOOK_FORMATS = ['plain', 'codehost', 'errortracker', 'chatapp'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** Header values are short labels; anything longer is not a real event name. */
const headerValue = z.string().max(200);

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A JSON document. Not `z.json()`, which walks all of it, on both sides of every delivery
 * (packages/bench/README.md#webhook-ingest): the value comes out of JSON.parse in the gateway and
 * out of Redis in the worker, so it is JSON by construction, and the transformers validate what
 * they read.
 */
const jsonValue = z.custom<JsonValue>((value) => value !== undefined, 'Must be a JSON value.');

/**
 * Where the body is. Small bodies ride in the job: as the value the gateway parsed (`inline`:
 * the job's own JSON carries it, so the worker parses it once, and serialising a parsed value
 * costs less than escaping the quotes of its text; for a code host or an error tracker, only
 * the part of it the transformer reads: `codeHostReadPart`, `errorTrackerReadPart` of
 * @switchboard/webhook-formats), or as the JSON text received when the
 * gateway never parsed it on its event loop (`json`: a body checked on a parse thread). Larger
 * ones are written to S3 under `webhookBodyKey(...)` first and the job carries the key (claim
 * check), so Redis never holds a 25 MiB code-host payload, neither while queued nor in
 * failed-job retention.
 */
export const webhookBodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('json'), text: z.string() }),
  z.object({ kind: z.literal('inline'), value: jsonValue }),
  z.object({ kind: z.literal('stored'), key: z.string().min(1).max(1024), bytes: z.number().int().min(0) }),
]);
export type WebhookBody = z.infer<typeof webhookBodySchema>;

/** What every delivery carries, whatever its format. */
const deliveryBase = z.object({
  webhookId: snowflakeSchema,
  /**
   * Fixed by the gateway when it accepts the request. The worker inserts the message under
   * this id (`ON CONFLICT DO NOTHING`), so a retried or recovered job never posts twice.
   */
  messageId: snowflakeSchema,
  /**
   * X-GitHub-Delivery when there was one: the worker stores it on the message, unique per
   * webhook, so of every delivery with this id to this webhook one posts.
   */
  deliveryId: headerValue.optional(),
  body: webhookBodySchema,
});

/**
 * Per format, the request headers its transformer reads. Only these travel with the job: the
 * rest of the request (signature headers included) stays in the gateway.
 */
export const webhookDeliveryPayloadSchema = z.discriminatedUnion('format', [
  deliveryBase.extend({ format: z.literal('plain') }),
  /**
   * `event`: X-GitHub-Event, `''` when the header was missing (204, no message:
   * docs/decisions.md#fluxer-code-host-deliveries).
   */
  deliveryBase.extend({ format: z.literal('codehost'), event: headerValue }),
  /** `resource`: Sentry-Hook-Resource (real Sentry); `fluxerEvent`: X-Sentry-Event (Fluxer's clients). */
  deliveryBase.extend({
    format: z.literal('errortracker'),
    resource: headerValue.nullable(),
    fluxerEvent: headerValue.nullable(),
  }),
  deliveryBase.extend({ format: z.literal('chatapp') }),
]);
export type WebhookDeliveryPayload = z.output<typeof webhookDeliveryPayloadSchema>;
export type WebhookDeliveryInput = z.input<typeof webhookDeliveryPayloadSchema>;

/** Where every claim-checked delivery body lives (webhookBodyKey): the sweep lists this prefix. */
export const WEBHOOK_BODY_PREFIX = 'webhook-bodies/';

/** S3 key of a claim-checked body; derived from ids so a retried upload overwrites itself. */
export function webhookBodyKey(webhookId: string, messageId: string): string {
  return `${WEBHOOK_BODY_PREFIX}${webhookId}/${messageId}.json`;
}

/** What the worker's handler returns (stored with the job; `wait=true` reads it). */
export const webhookDeliveryResultSchema = z.discriminatedUnion('outcome', [
  /** The message exists under `messageId` and MESSAGE_CREATE was appended to the events stream. */
  z.object({ outcome: z.literal('stored'), messageId: z.string() }),
  /** The body produces no message (unsupported code-host event, Sentry action …). */
  z.object({ outcome: z.literal('ignored'), reason: z.string() }),
  /** The webhook or its channel was deleted between the request and the delivery. */
  z.object({ outcome: z.literal('webhook_gone') }),
  z.object({ outcome: z.literal('channel_gone') }),
  /** Another delivery with the same `deliveryId` posted: the sender's retry or redelivery. */
  z.object({ outcome: z.literal('duplicate'), duplicateOf: z.string() }),
  /**
   * The claim-checked body was gone and no message stored. Only an earlier attempt of the job
   * deletes its body, once it is done with it (the gateway keeps the body of an enqueue it
   * cannot tell about, the sweep never takes an unfinished job's): that attempt posted nothing
   * (an ignored event, a channel gone) and its worker died before the job completed.
   */
  z.object({ outcome: z.literal('body_gone') }),
]);
export type WebhookDeliveryResult = z.infer<typeof webhookDeliveryResultSchema>;

/**
 * Retries and retention of the jobs that write messages (deliveries, edits, deletes): 1 s … 64 s
 * of backoff rides out a database restart, ids keep every retry idempotent; completed jobs are
 * only read by `wait=true` within seconds, and bodies must not pile up.
 */
const MESSAGE_JOB_DEFAULTS = { attempts: 8, removeOnComplete: { ageSeconds: 60 * 60, count: 1000 } };

/**
 * One inbound webhook request turned into one message. The job id is the message id, so
 * enqueueing the same request twice adds one job. A delivery with the sender's dedupe key is
 * claimed by the enqueue itself: while a job of that key on that webhook is unfinished, another
 * add of it adds nothing (docs/decisions.md#delivery-dedupe, dropped atomically before processing); once it is done,
 * the stored message holds the key (`messages.delivery_id`). Renaming the job strands waiting jobs.
 */
export const WEBHOOK_DELIVERY_JOB = defineJob({
  queue: QUEUES.webhookDeliveries,
  name: 'webhook-delivery',
  payload: webhookDeliveryPayloadSchema,
  jobId: (payload) => payload.messageId,
  deduplicationId: (payload) =>
    payload.deliveryId === undefined ? undefined : `${payload.webhookId}-${payload.deliveryId}`,
  defaults: MESSAGE_JOB_DEFAULTS,
});

/**
 * An edit of a message through its webhook's token (PATCH …/messages/{id}): the gateway
 * validated and rendered it; the worker writes it and appends MESSAGE_UPDATE once. The job id
 * is the edit's own snowflake, which also dates the edit (edited_timestamp), so a retried
 * attempt writes the same row and finds its event already appended. Renaming strands jobs.
 */
export const webhookMessageEditPayloadSchema = z.object({
  webhookId: snowflakeSchema,
  messageId: snowflakeSchema,
  editId: snowflakeSchema,
  /** Absent: the stored content stays. */
  content: z.string().optional(),
  /** Rendered embeds (as plain execute stores them); absent: the stored ones stay. */
  embeds: z.array(z.looseObject({})).optional(),
});
export type WebhookMessageEditPayload = z.output<typeof webhookMessageEditPayloadSchema>;

export const WEBHOOK_MESSAGE_EDIT_JOB = defineJob({
  queue: QUEUES.webhookDeliveries,
  name: 'webhook-message-edit',
  payload: webhookMessageEditPayloadSchema,
  jobId: (payload) => payload.editId,
  defaults: MESSAGE_JOB_DEFAULTS,
});

/**
 * A message deleted through its webhook's token: the worker deletes the row and appends
 * MESSAGE_DELETE once. The job id is the message id (a message is deleted once); the channel
 * and guild travel with the job, since a retry may find the row already gone.
 */
export const webhookMessageDeletePayloadSchema = z.object({
  webhookId: snowflakeSchema,
  messageId: snowflakeSchema,
  channelId: snowflakeSchema,
  guildId: snowflakeSchema.nullable(),
});
export type WebhookMessageDeletePayload = z.output<typeof webhookMessageDeletePayloadSchema>;

export const WEBHOOK_MESSAGE_DELETE_JOB = defineJob({
  queue: QUEUES.webhookDeliveries,
  name: 'webhook-message-delete',
  payload: webhookMessageDeletePayloadSchema,
  jobId: (payload) => payload.messageId,
  defaults: MESSAGE_JOB_DEFAULTS,
});

/** What an edit or delete job returns: whether the message was still there to change. */
export const webhookMessageChangeResultSchema = z.object({ outcome: z.enum(['changed', 'gone']) });
export type WebhookMessageChangeResult = z.infer<typeof webhookMessageChangeResultSchema>;

/**
 * Removes claim-checked bodies no delivery will read: older than the webhook worker's
 * WEBHOOK_BODY_ORPHAN_AGE_MS and whose job is gone or completed (a job scheduler, one run per
 * tick). They are left by an enqueue whose answer was lost and whose job was never added (the
 * gateway answered 503 and could not tell, so it kept the body), or by a delete that failed.
 * Renaming the job strands its schedule's jobs.
 */
export const WEBHOOK_BODY_SWEEP_JOB = defineJob({
  queue: QUEUES.webhookDeliveries,
  name: 'webhook-body-sweep',
  payload: z.object({}),
  defaults: { attempts: 1, removeOnComplete: { ageSeconds: 60 * 60, count: 100 } },
});
