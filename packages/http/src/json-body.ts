import express, { type RequestHandler } from 'express';
import { ApiError } from './api-error.ts';
import { assertJsonDepth } from './json-depth.ts';

export interface JsonBodyOptions {
  /** Largest accepted body in bytes (after decompression); larger is 413. */
  limitBytes: number;
}

/** `application/json` and the `+json` family (e.g. `application/merge-patch+json`). */
function isJson(req: Parameters<RequestHandler>[0]): boolean {
  return req.is(['application/json', '+json']) !== false;
}

/** Whether the request declares a body (a length above zero, or chunked transfer). */
function declaresBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return length !== undefined && length !== '0';
}

/**
 * JSON body parsing for routes that take a body. No body at all is `{}` (as Fluxer: a POST with
 * no body to a list route works); a body in another content type is 415; malformed JSON, too
 * large, nested deeper than MAX_JSON_DEPTH and bad charsets become errors that
 * `errorMiddleware` maps (400, 413, 415).
 */
export function jsonBody({ limitBytes }: JsonBodyOptions): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: true, type: () => true });
  return (req, res, next) => {
    if (!declaresBody(req)) {
      req.body = {};
      next();
      return;
    }
    if (!isJson(req)) {
      next(new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Content-Type must be application/json.' }));
      return;
    }
    parse(req, res, (error?: unknown) => {
      if (error) return next(error);
      try {
        assertJsonDepth(req.body);
      } catch (tooDeep) {
        return next(tooDeep);
      }
      next();
    });
  };
}
