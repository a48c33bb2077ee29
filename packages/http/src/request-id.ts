import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { withRequestId } from '@switchboard/telemetry';

declare global {
  // Express's own extension point for request properties (declaration merging, no runtime code).
  namespace Express {
    interface Request {
      /** Set by `requestId()`; carried in logs and echoed as `X-Request-Id`. */
      requestId?: string;
    }
  }
}

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What a proxy or client may send: short, printable, no separators that could split a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Accepts a sane incoming `X-Request-Id` (so a proxy's id follows the request through our logs)
 * or makes one. An app from createAdaptedApp echoes it on every response, errors included
 * (express-adaptations/request-id-head.ts): mount this before any route. The rest of the
 * request runs with it as the current request id, which log lines and enqueued jobs carry
 * (docs/decisions.md#request-ids-and-traces-across-the-queue).
 */
export function requestId(): RequestHandler {
  return (req, _res, next) => {
    const incoming = req.get(REQUEST_ID_HEADER);
    const id = incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.requestId = id;
    withRequestId(id, next);
  };
}

export function requestIdOf(req: Request): string | undefined {
  return req.requestId;
}
