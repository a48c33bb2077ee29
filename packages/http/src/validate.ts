import { z } from 'zod';
import { ApiError } from './api-error.ts';
import { issuesToItems } from './zod-issues.ts';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Drops object properties whose value is `""`, at any depth (decisions §1: `""` is absent for
 * optional fields, and a required field left empty then fails as missing). Strings inside
 * arrays are kept: an array element has no "absent".
 */
export function dropEmptyStrings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((element) => (typeof element === 'string' ? element : dropEmptyStrings(element)));
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === '') continue;
    result[key] = dropEmptyStrings(field);
  }
  return result;
}

/**
 * Parses request input (body, query or path parameters) with `schema`. Unknown keys are
 * stripped by zod objects; a failure is a 400 `INVALID_FORM_BODY` listing every bad field.
 */
export function validate<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(dropEmptyStrings(input));
  if (result.success) return result.data;
  throw new ApiError('INVALID_FORM_BODY', { errors: issuesToItems(result.error.issues) });
}
