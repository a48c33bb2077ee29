import express, { type Request, type RequestHandler, type Response } from 'express';
import { LIMITS, type ValidationErrorItem, type WebhookFormat } from '@switchboard/contracts';
import { ApiError, assertJsonDepth, responseLocal } from '@switchboard/http';
import { parseFormEncodedGitHubBody } from '@switchboard/webhook-formats';

/** An inbound webhook body, read once: the bytes (signatures) and the JSON value they carry. */
export interface InboundBody {
  /** Exactly as received (after Content-Encoding), for X-Hub-Signature-256 / Sentry-Hook-Signature. */
  raw: Buffer;
  value: unknown;
  /** The JSON document as text, for a claim check: the received bytes themselves when they are JSON. */
  json: Buffer | string;
}

const bodySlot = responseLocal<InboundBody>('inboundBody', 'inboundBody() must run before the execute handler');

function invalid(error: ValidationErrorItem): ApiError {
  return new ApiError('INVALID_FORM_BODY', { errors: [error] });
}

const NOT_JSON: ValidationErrorItem = { path: 'root', message: 'Request body is not valid JSON.', code: 'INVALID_FORMAT' };

function parseJson(text: string, error: ValidationErrorItem = NOT_JSON): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(error);
  }
}

/**
 * A form body: GitHub's `payload=<json>` for the code host; for the other formats a
 * `payload`/`payload_json` field holding the JSON document (Slack, Discord), else the fields
 * themselves (`content=hello`, as Discord accepts).
 */
function fromForm(format: WebhookFormat, text: string): Pick<InboundBody, 'value' | 'json'> {
  if (format === 'codehost') {
    const result = parseFormEncodedGitHubBody(text);
    if (!result.ok) throw invalid(result.error);
    return { value: result.payload, json: JSON.stringify(result.payload) };
  }
  const form = new URLSearchParams(text);
  const document = form.get('payload_json') ?? form.get('payload');
  if (document !== null) return { value: parseJson(document, { ...NOT_JSON, path: 'payload' }), json: document };
  const fields = Object.fromEntries(form);
  return { value: fields, json: JSON.stringify(fields) };
}

type BodyKind = 'json' | 'form' | 'unsupported';

/** JSON (also without a Content-Type: scripts often omit it), forms, anything else is 415. */
function kindOf(req: Request): BodyKind {
  if (req.headers['content-type'] === undefined) return 'json';
  if (req.is(['application/json', '+json'])) return 'json';
  if (req.is('application/x-www-form-urlencoded')) return 'form';
  return 'unsupported';
}

function toInbound(format: WebhookFormat, req: Request, raw: Buffer): InboundBody {
  // No body at all is `{}`, as on every JSON route: an empty execute is then a 400 or 404.
  if (raw.length === 0) return { raw, value: {}, json: '{}' };
  const kind = kindOf(req);
  if (kind === 'unsupported') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Content-Type must be application/json or application/x-www-form-urlencoded.' });
  }
  const text = raw.toString('utf8');
  const parsed = kind === 'form' ? fromForm(format, text) : { value: parseJson(text), json: raw };
  assertJsonDepth(parsed.value);
  return { raw, ...parsed };
}

/**
 * Reads the body once into a Buffer (at most 25 MiB after decompression: larger is 413), then
 * parses it once; `bodyOf(res)` returns the result. Runs after the rate limit and the
 * path checks, so rejected requests are never read.
 */
export function inboundBody(format: WebhookFormat): RequestHandler {
  const read = express.raw({ type: () => true, limit: LIMITS.body.inboundWebhookBytes });
  return (req, res, next) => {
    read(req, res, (error?: unknown) => {
      if (error) return next(error);
      try {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        bodySlot.set(res, toInbound(format, req, raw));
        next();
      } catch (parseError) {
        next(parseError);
      }
    });
  };
}

/** The body `inboundBody` read for this request. */
export function bodyOf(res: Response): InboundBody {
  return bodySlot.get(res);
}
