import { z } from 'zod';
import { isStorableText, normaliseText } from './text.ts';
import { isHttpUrl, isMediaUrl } from './urls.ts';

/** `null` and `""` mean "absent" (docs/decisions.md#bad-input); Discord clients send both for unset fields. */
function absentToUndefined(value: unknown): unknown {
  return value === null || value === '' ? undefined : value;
}

/** An optional field: absent, `null` or `""` all parse to `undefined`. */
export function optional<Schema extends z.ZodType>(schema: Schema) {
  return z.preprocess(absentToUndefined, schema.optional());
}

/**
 * A string PostgreSQL can store (isStorableText): a client sending NUL or an unpaired surrogate
 * is told so with a 400, rather than getting a 2xx for a message that could never be stored.
 */
export const storableString = () =>
  z.string().refine(isStorableText, {
    message: 'Text must not contain NUL characters or unpaired surrogates.',
    params: { code: 'INVALID_CHARACTERS' },
  });

/** A storable string normalised as Fluxer does (U+202E and form feeds removed, trimmed), then bounded. */
export function normalisedText(min: number, max: number) {
  return storableString().transform(normaliseText).pipe(z.string().min(min).max(max));
}

export const httpUrlSchema = z
  .string()
  .refine(isHttpUrl, { message: 'Not a valid http(s) URL.', params: { code: 'INVALID_URL' } });

export const mediaUrlSchema = z
  .string()
  .refine(isMediaUrl, { message: 'Not a valid http(s) or attachment:// URL.', params: { code: 'INVALID_URL' } });

/** A JSON object (not null, not an array): what every third-party format's payload must be. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The part of `payload` a renderer that reads it through `schema` reads: the schema's output
 * (its objects strip every key the renderer does not declare), or the whole payload when it
 * does not fit (the renderer's outcome then names what it lacks).
 */
export function readPartThrough(schema: z.ZodType, payload: unknown): unknown {
  const parsed = schema.safeParse(payload);
  return parsed.success ? parsed.data : payload;
}
