import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { hashCredential } from '@switchboard/auth';
import { LIMITS } from '@switchboard/contracts';
import { ApiError, closeWithoutReading, declaredBodyBytes } from '@switchboard/http';
import type { ExecuteHandlerDeps } from './handler.ts';
import { isWebhookOfToken } from './lookup.ts';
import { paramsOf } from './params.ts';

/**
 * True when the body may be over `maxBytes` but is not declared over the 25 MiB limit: no body at
 * all and a declared small one are read first, and one declared too large is 413 unread anyway
 * (the body reader's), whatever the webhook.
 */
function mayBeLarge(headers: IncomingHttpHeaders, maxBytes: number): boolean {
  if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return false;
  const declared = declaredBodyBytes(headers);
  return declared === undefined || (declared > maxBytes && declared <= LIMITS.body.inboundWebhookBytes);
}

/**
 * A body too large to decode on the event loop (over `parseHereMaxBytes`, or of a size not known
 * before reading it: chunked, compressed) is read only for a webhook that exists: an unknown id
 * or a wrong token is 404 UNKNOWN_WEBHOOK before a byte of it is read, and the connection is
 * closed unread. Reading and parsing 25 MiB costs the process far more than a lookup, and a
 * flood of such bodies at ids nobody has would otherwise all be read and parsed just to be
 * refused (issue 12's flood). Small bodies keep the reference's order, body (400) before token
 * (404): they are read first and looked up once, with their dedupe claim (handler.ts), rather
 * than paying every delivery a second statement.
 */
export function unknownWebhookBeforeLargeBody(lookUp: ExecuteHandlerDeps['lookUp'], parseHereMaxBytes: number): RequestHandler {
  return async (req, res, next) => {
    if (!mayBeLarge(req.headers, parseHereMaxBytes)) return next();
    const { webhook_id: webhookId, token } = paramsOf(res);
    const tokenHash = hashCredential(token);
    const { webhook } = await lookUp({ webhookId, tokenHash });
    if (!isWebhookOfToken(webhook, tokenHash)) {
      closeWithoutReading(res);
      throw new ApiError('UNKNOWN_WEBHOOK');
    }
    next();
  };
}
