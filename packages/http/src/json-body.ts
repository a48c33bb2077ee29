import express, { type Request, type RequestHandler } from 'express';
import { ApiError } from './api-error.ts';
import { notJsonError } from './body-errors.ts';
import { assertJsonDepth } from './json-depth.ts';
import { declaredBodyBytes, readDeclaredBody } from './read-body.ts';

export interface JsonBodyOptions {
  /** Largest accepted body in bytes (after decompression); larger is 413. */
  limitBytes: number;
}

/** `application/json` and the `+json` family (e.g. `application/merge-patch+json`). */
function isJson(req: Request): boolean {
  return req.is(['application/json', '+json']) !== false;
}

/** Whether the request declares a body (a length above zero, or chunked transfer). */
function declaresBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return length !== undefined && length !== '0';
}

/** What nearly every client sends: `application/json`, bare or with a UTF-8 charset. */
const PLAIN_JSON_TYPE = /^application\/json[\t ]*(?:;[\t ]*charset[\t ]*=[\t ]*"?utf-8"?[\t ]*)?$/i;

/**
 * A body readable without body-parser: plain JSON of a declared size within the limit and not
 * compressed, which is nearly every admin and management call. body-parser's general machinery
 * (media type and charset parsing, a decoding stream, a list of chunks) costs a small JSON POST
 * more server CPU than this way; read after an await, as the admin routes do after the key
 * lookup, the difference shrinks (packages/bench/README.md#http-path).
 * Everything else (other charsets, compression, chunked, too large) still goes through
 * body-parser, with its errors.
 */
function isPlainJson(req: Request, limitBytes: number): boolean {
  const type = req.headers['content-type'];
  if (type === undefined || !PLAIN_JSON_TYPE.test(type)) return false;
  const declared = declaredBodyBytes(req.headers);
  return declared !== undefined && declared <= limitBytes;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** As body-parser's strict mode: a UTF-8 BOM is skipped, and only an object or array is a body. */
function parsePlainJson(bytes: Buffer): unknown {
  const text = (bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notJsonError();
  }
  if (value === null || typeof value !== 'object') throw notJsonError();
  return value;
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
    if (isPlainJson(req, limitBytes)) {
      readDeclaredBody(req, limitBytes)!
        .then((bytes) => {
          const body = parsePlainJson(bytes);
          assertJsonDepth(body);
          req.body = body;
        })
        .then(() => next(), next);
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
