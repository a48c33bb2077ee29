import type { RequestHandler, Response } from 'express';
import { hashCredential } from '@switchboard/auth';
import type { ExecutionWebhook } from '@switchboard/db';
import { ApiError, closeWithoutReading, responseLocal } from '@switchboard/http';
import { refuseUnsignedWhenSecret } from '../signed-only.ts';
import { checkToken } from './caller.ts';
import type { ExecutionLookupFn } from './lookup.ts';
import { paramsOf } from './params.ts';

const webhookSlot = responseLocal<ExecutionWebhook>(
  'executeWebhook',
  'webhookBeforeBody() must run before the execute handler',
);

/**
 * The webhook of the path and its token, checked before a byte of the body is read or a byte
 * of the body budget taken, whatever the body (declared or chunked, compressed or not, of any
 * size): an unknown id or a wrong token is 404 UNKNOWN_WEBHOOK at once. Only a holder of a
 * webhook's token can then make the process read, hold or parse a body. A body still on its
 * way is not read: the connection is closed after the answer; one already received (most
 * small deliveries arrive with their headers) keeps it open. The webhook found is the one the
 * handler uses (`webhookOf`): a webhook deleted while its body arrived is dropped by the worker,
 * as one deleted between the answer and the job always was. On a route that carries no
 * signature (`signed` false), a webhook with a secret is refused here too (401, signed-only.ts):
 * its token alone proves nothing such a route could accept, so its body is never read either.
 */
export function webhookBeforeBody(lookUp: ExecutionLookupFn, route: { signed: boolean }): RequestHandler {
  return async (req, res, next) => {
    const { webhook_id: webhookId, token } = paramsOf(res);
    const tokenHash = hashCredential(token);
    const webhook = await lookUp(webhookId);
    if (!checkToken(res, webhook, tokenHash)) {
      if (!req.complete) closeWithoutReading(res);
      throw new ApiError('UNKNOWN_WEBHOOK');
    }
    if (!route.signed && webhook.secret !== null) {
      if (!req.complete) closeWithoutReading(res);
      refuseUnsignedWhenSecret(webhook);
    }
    webhookSlot.set(res, webhook);
    next();
  };
}

/** The webhook whose token `webhookBeforeBody` checked for this request. */
export function webhookOf(res: Response): ExecutionWebhook {
  return webhookSlot.get(res);
}
