import type { ValidationErrorItem } from '@switchboard/contracts';
import { z } from 'zod';

/**
 * What the gateway requires of a code-host body before it answers 2xx: a JSON object whose
 * common keys, when present, have the type GitHub always sends. Nothing else is required:
 * real payloads omit `sender` (security_advisory, some code_scanning_alert deliveries), ids
 * exceed int32 and URLs carry fragments (docs/decisions.md#third-party-payloads), so `{}` is accepted and ignored.
 * A bad body (a 400) is a JSON value that is not an object, or a common key of the wrong type.
 *
 * A gate, not a reader: the gateway enqueues the body as received and discards this output,
 * so the objects strip unknown keys (zod then copies nothing of a 7 KB push; a loose object
 * copied every key of it and of its repository on each request).
 */
export const codeHostBodySchema = z.object({
  action: z.string().optional(),
  sender: z.object({ login: z.string() }).optional(),
  repository: z.object({}).nullish(),
  organization: z.object({}).nullish(),
  installation: z.object({}).nullish(),
});

export type CodeHostBody = z.output<typeof codeHostBodySchema>;

export type FormBodyResult = { ok: true; payload: unknown } | { ok: false; error: ValidationErrorItem };

/**
 * Decodes an `application/x-www-form-urlencoded` delivery, given its fields: GitHub sends the
 * JSON document as the `payload` field. The result still goes through `codeHostBodySchema`.
 */
export function parseFormEncodedGitHubBody(form: Pick<URLSearchParams, 'get'>): FormBodyResult {
  const payload = form.get('payload');
  if (payload === null || payload.trim() === '') {
    return { ok: false, error: { path: 'payload', message: 'The form has no payload field.', code: 'REQUIRED' } };
  }
  try {
    return { ok: true, payload: JSON.parse(payload) };
  } catch {
    return {
      ok: false,
      error: { path: 'payload', message: 'The payload field is not valid JSON.', code: 'INVALID_FORMAT' },
    };
  }
}
