import type { Express, Response } from 'express';
import { REQUEST_ID_HEADER } from '../request-id.ts';

type WriteHead = (this: Response, statusCode: number, ...rest: unknown[]) => Response;

/**
 * `writeHead` that adds the request's id (`req.requestId`, set by requestId()) to the head as it
 * is written. Node builds a bare head (every 204 of webhook ingest) from the list writeHead is
 * given; one header set beforehand with setHeader sends it down its general path instead. A list
 * the caller gives is extended; headers given as an object, or an id the handler set itself, go
 * the general way. Every answer passes here, errors and express's own 404 included: Node's
 * `end()` writes an unwritten head through `this.writeHead`, this one.
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

/** Makes `app`'s responses echo their request's id as `X-Request-Id`: once per app, or the id is written twice. */
export function echoRequestIdInHead(app: Express): void {
  const response = app.response as unknown as { writeHead: WriteHead };
  response.writeHead = writeHeadWithRequestId(response.writeHead);
}
