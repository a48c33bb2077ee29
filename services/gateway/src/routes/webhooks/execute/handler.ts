import type { RequestHandler } from 'express';
import { ApiError } from '@switchboard/http';
import type { GatewayDeps } from '../../../deps.ts';
import { bodyOf, type InboundBody } from './body.ts';
import { refusalError } from './body-check.ts';
import { webhookOf } from './credentials.ts';
import type { ExecutionFormat, FormatFields } from './formats.ts';
import type { ExecutionLookupFn } from './lookup.ts';
import { submitDelivery, type SubmitDeps } from './submit.ts';
import { answerWait } from './wait.ts';

export type ExecuteHandlerDeps = SubmitDeps &
  Pick<GatewayDeps, 'ids' | 'pool'> & {
    waitTimeoutMs: number;
    /** The webhook of a request's path (from memory, or batched: see lookup.ts). */
    lookUp: ExecutionLookupFn;
  };

/**
 * The body as the job carries it: the part its transformer reads, when the format says
 * (formats.ts). A parse thread already gave a checked body's part as its `json`.
 */
function jobBody(format: ExecutionFormat<unknown>, body: InboundBody, fields: FormatFields): InboundBody {
  if (body.checked || !format.readPart) return body;
  return { ...body, value: format.readPart(body.value, fields) };
}

/** `?wait=true` (also `True` and `1`, as later Fluxer parses it); anything else does not wait. */
function wantsWait(query: unknown): boolean {
  const wait = (query as Record<string, unknown>)['wait'];
  return wait === 'true' || wait === 'True' || wait === '1';
}

/**
 * One execution route after the body was read (its webhook and token were checked before:
 * credentials.ts, which also refused a webhook with a secret on a route without signatures):
 * body → 400, signature (webhooks with a secret) → 401, format checks → 400, then enqueue. The message id
 * is fixed here, before enqueueing: every retry of the job reuses it. A delivery's dedupe key
 * (X-GitHub-Delivery) is claimed by the enqueue, in Redis and in the add's own script, before
 * the 2xx: while a job of that key is unfinished a redelivery adds nothing. The key travels
 * with the job, and the worker stores it with the message (one statement), which drops a
 * redelivery after the first posted: of the deliveries with one key exactly one posts, and the
 * accept path writes nothing to PostgreSQL (a duplicate is still answered 2xx, as the sender
 * expects of a delivery it repeats).
 */
export function executeHandler<Parsed>(
  format: ExecutionFormat<Parsed>,
  deps: ExecuteHandlerDeps,
  waits: boolean,
): RequestHandler {
  return async (req, res) => {
    const body = bodyOf(res);
    // A body checked on a parse thread passed its schema there; only the result of the
    // format's post-token check came back (applied below, in the same order).
    const parsed = body.checked ? undefined : format.parse(body.value);
    const messageId = deps.ids.next();
    const deliveryId = format.deliveryId?.(req);
    const webhook = webhookOf(res);
    // A route without signatures refused a webhook with a secret before its body (credentials.ts).
    if (format.verify && webhook.secret !== null && !format.verify(webhook.secret, body.raw, req))
      throw new ApiError('INVALID_WEBHOOK_SIGNATURE');
    if (body.checked?.refusal) throw refusalError(body.checked.refusal);
    if (!body.checked) format.accept?.(parsed as Parsed);
    const waitMs = waits && wantsWait(req.query) ? deps.waitTimeoutMs : undefined;
    const fields = format.fields(req);
    const submitted = await submitDelivery(deps, {
      delivery: { webhookId: webhook.id, messageId, ...(deliveryId === undefined ? {} : { deliveryId }), ...fields },
      body: jobBody(format, body, fields),
      waitMs,
    });
    if (submitted.kind === 'waited') return answerWait(res, deps.pool, deps.logger, submitted.outcome, messageId);
    format.respond(res);
  };
}
