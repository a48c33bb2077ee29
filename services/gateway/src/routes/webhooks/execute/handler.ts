import type { RequestHandler } from 'express';
import type { Pool } from '@switchboard/db';
import { ApiError, validate } from '@switchboard/http';
import type { Logger } from '@switchboard/logger';
import type { SnowflakeGenerator } from '@switchboard/snowflake';
import { findWebhookForExecution } from '../find-for-execution.ts';
import { webhookTokenParams } from '../schemas.ts';
import { bodyOf } from './body.ts';
import type { ExecutionFormat } from './formats.ts';
import { submitDelivery, type SubmitDeps } from './submit.ts';
import { answerWait } from './wait.ts';

export interface ExecuteHandlerDeps extends SubmitDeps {
  pool: Pool;
  logger: Logger;
  ids: SnowflakeGenerator;
  waitTimeoutMs: number;
}

/** `?wait=true` (also `True` and `1`, as later Fluxer parses it); anything else does not wait. */
function wantsWait(query: unknown): boolean {
  const wait = (query as Record<string, unknown>)['wait'];
  return wait === 'true' || wait === 'True' || wait === '1';
}

/**
 * One execution route after the body was read: body → 400, token → 404 UNKNOWN_WEBHOOK,
 * signature (webhooks with a secret) → 401, format checks → 400, then dedupe and enqueue.
 * The message id is fixed here, before enqueueing: every retry of the job reuses it.
 */
export function executeHandler<Parsed>(format: ExecutionFormat<Parsed>, deps: ExecuteHandlerDeps, waits: boolean): RequestHandler {
  return async (req, res) => {
    const params = validate(webhookTokenParams, req.params);
    const body = bodyOf(res);
    const parsed = format.parse(body.value);
    const webhook = await findWebhookForExecution(deps.pool, params.webhook_id, params.token);
    if (!webhook) throw new ApiError('UNKNOWN_WEBHOOK');
    if (format.verify && webhook.secret !== null && !format.verify(webhook.secret, body.raw, req)) {
      throw new ApiError('INVALID_WEBHOOK_SIGNATURE');
    }
    format.accept?.(parsed);
    const messageId = deps.ids.next();
    const waitMs = waits && wantsWait(req.query) ? deps.waitTimeoutMs : undefined;
    const submitted = await submitDelivery(
      deps,
      { delivery: { webhookId: webhook.id, messageId, ...format.fields(req) }, body, waitMs },
      format.deliveryId?.(req),
    );
    if (submitted.kind === 'duplicate') deps.logger.info({ webhookId: webhook.id }, 'duplicate webhook delivery dropped');
    if (submitted.kind === 'waited') return answerWait(res, deps.pool, deps.logger, submitted.outcome, messageId);
    format.respond(res);
  };
}
