import type { RequestHandler } from 'express';
import { ApiError } from '@switchboard/http';

/**
 * Fluxer refuses plain execute from its own web app (403 INVALID_API_ORIGIN,
 * docs/decisions.md#fluxer-webhook-routes-and-check-order): a
 * script running there must not be able to post through webhooks it can read. Our web app's
 * origin is WEBAPP_URL's. Other callers (servers, CLIs) send no Origin, or another one.
 */
export function blockAppOrigin(webAppUrl: string): RequestHandler {
  const blocked = new URL(webAppUrl).origin;
  return (req, _res, next) => {
    next(req.get('origin') === blocked ? new ApiError('INVALID_API_ORIGIN') : undefined);
  };
}
