import type { Request, RequestHandler, Response } from 'express';
import { LIMITS } from '@switchboard/contracts';
import {
  ApiError,
  closeWithoutReading,
  readDeclaredBody,
  readStreamedBody,
  responseLocal,
  type BodyTimeouts,
} from '@switchboard/http';
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
  throw new ApiError('UNSUPPORTED_MEDIA_TYPE', {
    message: 'Content-Type must be application/json or application/x-www-form-urlencoded.',
  });
}

async function toInbound(
  format: ExecutionFormat,
  req: Request,
  raw: Buffer,
  options: InboundBodyOptions,
): Promise<InboundBody> {
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
  /** How long a body may take to arrive (WEBHOOK_BODY_TIMEOUT_MS, WEBHOOK_BODY_IDLE_TIMEOUT_MS). */
  timeouts: BodyTimeouts;
}

/**
 * The body's bytes: a declared size straight into place (readDeclaredBody), a chunked or
 * compressed one decoded as it arrives, taking its decoded bytes from the body budget
 * (readStreamedBody); 25 MiB at most once decoded. A read that fails (413, 415, 400, 408, or
 * 503 past the budget) closes the connection without reading the rest: no code host or tracker
 * sends a body over 25 MiB, and a client declaring gigabytes, or stalling, would otherwise be
 * read (or waited for) to the end.
 */
function readBody(req: Request, res: Response, timeouts: BodyTimeouts): Promise<Buffer> {
  const limitBytes = LIMITS.body.inboundWebhookBytes;
  const reading =
    readDeclaredBody(req, limitBytes, timeouts) ??
    readStreamedBody(req, {
      limitBytes,
      take: (bytes) => bodyReservationOf(res).grow(bytes),
      overBudget: () => refuseForMemory(res),
      timeouts,
    });
  return reading.catch((error: unknown) => {
    closeWithoutReading(res);
    throw error;
  });
}

/**
 * Reads the body once into a Buffer (readBody), then decodes it once, on the event loop when
 * small, on a parse thread when large (body-check.ts); `bodyOf(res)` returns the result. Runs
 * after the rate limit, the path and token checks and the body budget, so rejected requests
 * are never read.
 */
export function inboundBody(format: ExecutionFormat, options: InboundBodyOptions): RequestHandler {
  return (req, res, next) => {
    readBody(req, res, options.timeouts)
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
