import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { hashCredential } from '@switchboard/auth';
import { LIMITS } from '@switchboard/contracts';
import { ApiError, closeWithoutReading, declaredBodyBytes } from '@switchboard/http';
import type { ExecuteHandlerDeps } from './handler.ts';
import { checkToken } from './caller.ts';
import { paramsOf } from './params.ts';

/** The declared size above which the webhook is looked up before the body is read. */
const LOOKUP_FIRST_ABOVE_BYTES = 1024 * 1024;

/**
 * True when the body is declared over LOOKUP_FIRST_ABOVE_BYTES but not over the 25 MiB limit:
 * one declared too large is 413 unread anyway (the body reader's), whatever the webhook.
 */
function declaredLarge(headers: IncomingHttpHeaders): boolean {
  const declared = declaredBodyBytes(headers);
  return declared !== undefined && declared > LOOKUP_FIRST_ABOVE_BYTES && declared <= LIMITS.body.inboundWebhookBytes;
}

/**
 * A body declared over 1 MiB is read only for a webhook that exists: an unknown id or a wrong
 * token is 404 UNKNOWN_WEBHOOK before a byte of it is read, and the connection is closed unread.
 * Reading and parsing 25 MiB costs the process far more than a lookup, and a flood of such
 * bodies at ids nobody has would otherwise all be read and parsed just to be refused (issue
 * 12's flood). Every other body keeps the reference's order, body (400) before token (404): it
 * is read first and looked up once (handler.ts).
 */
export function unknownWebhookBeforeLargeBody(lookUp: ExecuteHandlerDeps['lookUp']): RequestHandler {
  return async (req, res, next) => {
    if (!declaredLarge(req.headers)) return next();
    const { webhook_id: webhookId, token } = paramsOf(res);
    const tokenHash = hashCredential(token);
    const webhook = await lookUp(webhookId);
    if (!checkToken(res, webhook, tokenHash)) {
      closeWithoutReading(res);
      throw new ApiError('UNKNOWN_WEBHOOK');
    }
    next();
  };
}
