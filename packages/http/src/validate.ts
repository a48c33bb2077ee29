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

/** The path of the first string (value or key) holding NUL, which PostgreSQL text refuses; iterative. */
function nulPath(input: unknown): string | null {
  const stack: Array<[unknown, string]> = [[input, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path || 'root';
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return childPath;
      stack.push([child, childPath]);
    }
  }
  return null;
}

/**
 * Parses request input (body, query or path parameters) with `schema`. Unknown keys are
 * stripped by zod objects; a failure is a 400 `INVALID_FORM_BODY` listing every bad field. A NUL
 * character anywhere is refused first: no column or query parameter of PostgreSQL can hold one,
 * so it would otherwise surface as a 500 from the database.
 */
export function validate<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const nul = nulPath(input);
  if (nul !== null) {
    throw new ApiError('INVALID_FORM_BODY', {
      errors: [{ path: nul, message: 'Text must not contain NUL characters.', code: 'INVALID_CHARACTERS' }],
    });
  }
  const result = schema.safeParse(dropEmptyStrings(input));
  if (result.success) return result.data;
  throw new ApiError('INVALID_FORM_BODY', { errors: issuesToItems(result.error.issues) });
}
