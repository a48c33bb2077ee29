import express, { type Request, type RequestHandler, type Response } from 'express';
import { LIMITS } from '@switchboard/contracts';
import { ApiError, closeWithoutReading, readDeclaredBody, readInTurns, responseLocal } from '@switchboard/http';
import { bodyReservationOf, refuseForMemory } from './body-budget.ts';
import type { BodyChecker, Refusal } from './body-check.ts';
import { decodeBody, type BodyKind } from './decode.ts';
import type { ExecutionFormat } from './formats.ts';

interface ReceivedBytes {
  /** Exactly as received (after Content-Encoding), for X-Hub-Signature-256 / Sentry-Hook-Signature. */
  raw: Buffer;
  /**
   * The JSON document as text: its size places the job's body (inline or in S3). A body checked
   * on a parse thread is delivered as this text: the received bytes themselves when they are
   * JSON, a form's payload, or the part its transformer reads (formats.ts `readPart`).
   */
  json: Buffer | string;
}

/** A body decoded on the event loop: the handler runs the format's checks on its value. */
interface DecodedBody extends ReceivedBytes {
  value: unknown;
  checked?: undefined;
}

/**
 * A body checked on a parse thread (its schema passed there), never decoded on the event loop:
 * `checked` holds what its format's post-token check refused, or null.
 */
interface ThreadCheckedBody extends ReceivedBytes {
  checked: { refusal: Refusal | null };
}

/** An inbound webhook body, read once: the bytes, and either the JSON value or the thread's verdict. */
export type InboundBody = DecodedBody | ThreadCheckedBody;

const bodySlot = responseLocal<InboundBody>('inboundBody', 'inboundBody() must run before the execute handler');

/** JSON (also without a Content-Type: scripts often omit it), forms, anything else is 415. */
function kindOf(req: Request): BodyKind {
  const type = req.headers['content-type'];
  // What code hosts and error trackers send, answered without parsing the media type.
  if (type === undefined || type === 'application/json') return 'json';
  if (req.is(['application/json', '+json'])) return 'json';
  if (req.is('application/x-www-form-urlencoded')) return 'form';
  throw new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Content-Type must be application/json or application/x-www-form-urlencoded.' });
}

async function toInbound(format: ExecutionFormat, req: Request, raw: Buffer, options: InboundBodyOptions): Promise<InboundBody> {
  // No body at all is `{}`, as on every JSON route: an empty execute is then a 400 or 404.
  if (raw.length === 0) return { raw, value: {}, json: '{}' };
  const kind = kindOf(req);
  if (raw.length <= options.parseHereMaxBytes) return { raw, ...decodeBody(format.name, kind, raw) };
  const checked = await options.checker.check(format.name, kind, raw, format.fields(req));
  return { raw: checked.raw, json: checked.json, checked: { refusal: checked.refusal } };
}

export interface InboundBodyOptions {
  /** Bodies up to this size are decoded on the event loop; larger ones on a parse thread. */
  parseHereMaxBytes: number;
  checker: BodyChecker;
}

/**
 * Reads the body once into a Buffer (at most 25 MiB after decompression: larger is 413; a
 * declared size straight into place: readDeclaredBody of @switchboard/http), then decodes it once, on the event loop when small, on a parse thread when large (body-check.ts);
 * `bodyOf(res)` returns the result. Runs after the rate limit and the path checks, so rejected
 * requests are never read.
 */
export function inboundBody(format: ExecutionFormat, options: InboundBodyOptions): RequestHandler {
  const readAnyBody = express.raw({ type: () => true, limit: LIMITS.body.inboundWebhookBytes });
  const read = (req: Request, res: Response): Promise<Buffer> =>
    (
      readDeclaredBody(req, LIMITS.body.inboundWebhookBytes) ??
      new Promise<Buffer>((resolve, reject) => {
        // A chunked body takes its bytes from the budget as they arrive: past it, 503 unread.
        const reservation = bodyReservationOf(res);
        const onData = (chunk: Buffer) => {
          if (reservation.grow(chunk.length)) return;
          req.off('data', onData);
          stopTurns();
          req.pause();
          reject(refuseForMemory(res));
        };
        req.on('data', onData);
        const stopTurns = readInTurns(req);
        readAnyBody(req, res, (error?: unknown) => {
          req.off('data', onData);
          stopTurns();
          if (error) reject(error);
          else resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
        });
      })
    ).catch((error: unknown) => {
      // The rest of a body over 25 MiB is not read (no code host or tracker sends one; a client
      // declaring gigabytes would be read to the end): the 413 closes the connection. Routes
      // with small limits (admin JSON) keep reading, so a client that sends its whole body
      // before reading the answer still gets its 413.
      if ((error as { status?: unknown } | null)?.status === 413) closeWithoutReading(res);
      throw error;
    });
  return (req, res, next) => {
    read(req, res)
      .then((raw) => toInbound(format, req, raw, options))
      .then((body) => {
        bodySlot.set(res, body);
        next();
      }, next);
  };
}

/** The body `inboundBody` read for this request. */
export function bodyOf(res: Response): InboundBody {
  return bodySlot.get(res);
}
