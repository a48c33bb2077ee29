import type { ValidationErrorItem, WebhookFormat } from '@switchboard/contracts';
import { ApiError, assertJsonCounts, assertJsonDepth, notJsonError } from '@switchboard/http/errors';
import { parseFormEncodedGitHubBody } from '@switchboard/webhook-formats';
import { parseForm } from './form.ts';

/** A body's JSON value, and the JSON document as text for the job or a claim check (the received text when it is JSON). */
export interface DecodedBody {
  value: unknown;
  json: string;
}

/** How a body is written: JSON or a form (anything else was refused with 415 before). */
export type BodyKind = 'json' | 'form';

function invalid(error: ValidationErrorItem): ApiError {
  return new ApiError('INVALID_FORM_BODY', { errors: [error] });
}

/** `path`: where the document sat (a form field), root for a JSON body. */
function parseJson(text: string, path?: string): unknown {
  assertJsonCounts(text, path);
  try {
    return JSON.parse(text);
  } catch {
    throw notJsonError(path);
  }
}

/**
 * A form body (at most MAX_FORM_FIELDS fields, parsed in linear time): GitHub's `payload=<json>` for the code host; for the other formats a
 * `payload`/`payload_json` field holding the JSON document (Slack, Discord), else the fields
 * themselves (`content=hello`, as Discord accepts).
 */
function fromForm(format: WebhookFormat, text: string): DecodedBody {
  const form = parseForm(text);
  if (format === 'codehost') {
    // Parsed by the format's own decoder, so its document is checked here first.
    assertJsonCounts(form.get('payload') ?? '', 'payload');
    const result = parseFormEncodedGitHubBody(form);
    if (!result.ok) throw invalid(result.error);
    return { value: result.payload, json: JSON.stringify(result.payload) };
  }
  const document = form.get('payload_json') ?? form.get('payload');
  if (document !== null) return { value: parseJson(document, 'payload'), json: document };
  const fields = form.toObject();
  return { value: fields, json: JSON.stringify(fields) };
}

/**
 * Decodes a non-empty body once: JSON or form, holding no more than MAX_JSON_CONTAINERS objects
 * and arrays and MAX_JSON_VALUES values (counted before parsing) and no deeper than
 * MAX_JSON_DEPTH; 400 otherwise.
 * Pure (no request), so a parse thread runs the very same code as the event loop.
 */
export function decodeBody(format: WebhookFormat, kind: BodyKind, raw: Buffer): DecodedBody {
  const text = raw.toString('utf8');
  // The text decoded once here is what the job carries (or S3 holds): no second decoding later.
  const decoded = kind === 'form' ? fromForm(format, text) : { value: parseJson(text), json: text };
  assertJsonDepth(decoded.value);
  return decoded;
}
