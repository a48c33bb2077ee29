import express, { type Request } from 'express';
import { z } from 'zod';

/** The console's forms: urlencoded, small, a bounded number of fields (repeated names become arrays). */
export const formBody = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 400 });

/** One form field: absent and empty are both undefined; a repeated field keeps its first value. */
export const field = z.preprocess(
  (value) => (Array.isArray(value) ? value[0] : value === '' ? undefined : value),
  z.string().max(4096).optional(),
);

/** A repeated field (checkboxes): always an array. */
export const fieldList = z.preprocess(
  (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string().max(200)).max(200),
);

/** The submitted form, parsed by `schema`; a form that fails it yields the first message per field. */
export function parseForm<T extends z.ZodType>(
  schema: T,
  req: Request,
): { ok: true; value: z.output<T> } | { ok: false; errors: Record<string, string> } {
  const parsed = schema.safeParse(req.body ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
  return { ok: false, errors };
}

/** The message of an admin API error answer (`{ code, message, errors }`), with its field errors. */
export function apiErrorText(body: unknown, status: number): string {
  const answer = (body ?? {}) as { message?: unknown; errors?: Array<{ path?: unknown; message?: unknown }> };
  const message = typeof answer.message === 'string' ? answer.message : `The admin API answered ${status}.`;
  const details = (answer.errors ?? [])
    .map((error) => `${String(error.path ?? '')}: ${String(error.message ?? '')}`)
    .join('; ');
  return details === '' ? message : `${message} ${details}`;
}
