import type { z } from 'zod';
import { ApiError } from './api-error.ts';
import { issuesToItems } from './zod-issues.ts';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Keys no request field has, dropped from every copied object: JSON.parse makes `__proto__` an
 * own key, and assigning it to a copy would set the copy's prototype, whose properties a schema
 * then reads as the request's (`{"__proto__":{"email":…}}` passed as an email check).
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Drops object properties whose value is `""`, at any depth (docs/decisions.md#bad-input: `""` is absent for
 * optional fields, and a required field left empty then fails as missing), and the keys
 * `__proto__`, `constructor` and `prototype`. Strings inside arrays are kept: an array element
 * has no "absent".
 */
export function dropEmptyStrings(value: unknown): unknown {
  if (Array.isArray(value))
    return value.map((element) => (typeof element === 'string' ? element : dropEmptyStrings(element)));
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === '' || PROTOTYPE_KEYS.has(key)) continue;
    result[key] = dropEmptyStrings(field);
  }
  return result;
}

/**
 * Whether any string (value or key) holds NUL, which PostgreSQL text refuses; iterative. Checks
 * strings where it meets them and builds no paths, so a clean input (nearly every one, some
 * with thousands of ids) costs one look per value.
 */
function holdsNul(input: unknown): boolean {
  if (typeof input === 'string') return input.includes('\u0000');
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const element of value) {
        if (typeof element === 'string') {
          if (element.includes('\u0000')) return true;
        } else if (element !== null && typeof element === 'object') stack.push(element);
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      const field = (value as Record<string, unknown>)[key];
      if (key.includes('\u0000') || (typeof field === 'string' && field.includes('\u0000'))) return true;
      if (field !== null && typeof field === 'object') stack.push(field);
    }
  }
  return false;
}

/** The path of the first string (value or key) holding NUL, for the error; iterative. */
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
  if (holdsNul(input)) {
    throw new ApiError('INVALID_FORM_BODY', {
      errors: [
        {
          path: nulPath(input) ?? 'root',
          message: 'Text must not contain NUL characters.',
          code: 'INVALID_CHARACTERS',
        },
      ],
    });
  }
  const result = schema.safeParse(dropEmptyStrings(input));
  if (result.success) return result.data;
  throw new ApiError('INVALID_FORM_BODY', { errors: issuesToItems(result.error.issues) });
}
