import { randomUUID } from 'node:crypto';
import type { Express as ExpressApp, Request, RequestHandler, Response } from 'express';

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

const echoingApps = new WeakSet<ExpressApp>();

type WriteHead = (this: Response, statusCode: number, ...rest: unknown[]) => Response;

/**
 * `writeHead` that adds the request's id to the head as it is written. Node builds a bare
 * head (every 204 of webhook ingest) from the list writeHead is given; one header set
 * beforehand with setHeader sends it down its general path instead, which costs a bare 204
 * noticeably more CPU (packages/bench/README.md#http-path). A list the caller gives is
 * extended; headers given as an object, or an id the handler set itself, go the general way,
 * as before.
 */
function writeHeadWithRequestId(writeHead: WriteHead): WriteHead {
  return function (this: Response, statusCode, ...rest) {
    const id = this.req.requestId;
    if (id === undefined || this.hasHeader(REQUEST_ID_HEADER)) return writeHead.call(this, statusCode, ...rest);
    if (rest.length === 0) return writeHead.call(this, statusCode, [REQUEST_ID_HEADER, id]);
    const [headers] = rest;
    if (rest.length === 1 && Array.isArray(headers))
      return writeHead.call(this, statusCode, [...(headers as unknown[]), REQUEST_ID_HEADER, id]);
    this.setHeader(REQUEST_ID_HEADER, id);
    return writeHead.call(this, statusCode, ...rest);
  };
}

/**
 * Accepts a sane incoming `X-Request-Id` (so a proxy's id follows the request through our logs)
 * or makes one, and echoes it on every response of `app`, errors included: the id is taken
 * before any route runs, and `app`'s responses write it into their head (writeHeadWithRequestId).
 */
export function requestId(app: ExpressApp): RequestHandler {
  // Once per app: a second wrapper would add the id to the list the first one made.
  if (!echoingApps.has(app)) {
    echoingApps.add(app);
    const response = app.response as unknown as { writeHead: WriteHead };
    response.writeHead = writeHeadWithRequestId(response.writeHead);
  }
  return (req, _res, next) => {
    const incoming = req.get(REQUEST_ID_HEADER);
    req.requestId = incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    next();
  };
}

export function requestIdOf(req: Request): string | undefined {
  return req.requestId;
}
