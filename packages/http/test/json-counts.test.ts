import { describe, expect, it } from 'vitest';
import { assertJsonCounts, isApiError, MAX_JSON_CONTAINERS, MAX_JSON_VALUES } from '../src/index.ts';

/** `[{},{},…]` holding `count` objects inside the one array. */
function emptyObjects(count: number): string {
  return `[${Array(count).fill('{}').join(',')}]`;
}

function refusal(text: string, path?: string): unknown {
  try {
    assertJsonCounts(text, path);
    return null;
  } catch (error) {
    return isApiError(error) ? { status: error.status, code: error.code, errors: error.errors } : error;
  }
}

describe('assertJsonCounts', () => {
  it('refuses one object or array past the limit with a 400 at the path given', () => {
    expect(refusal(emptyObjects(MAX_JSON_CONTAINERS - 1))).toBeNull();
    expect(refusal(emptyObjects(MAX_JSON_CONTAINERS))).toMatchObject({
      status: 400,
      code: 'INVALID_FORM_BODY',
      errors: [{ path: 'root', code: 'INVALID_FORMAT' }],
    });
    expect(refusal(`[${Array(MAX_JSON_CONTAINERS).fill('[]').join(',')}]`, 'payload')).toMatchObject({
      errors: [{ path: 'payload' }],
    });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const brackets = '{['.repeat(MAX_JSON_CONTAINERS);
    expect(refusal(JSON.stringify({ text: brackets }))).toBeNull();
    expect(refusal(JSON.stringify({ text: `\\"${brackets}` }))).toBeNull();
    expect(refusal(JSON.stringify([`"${brackets}`, brackets]))).toBeNull();
  });

  it('refuses one value past the limit, however few containers hold them', () => {
    const numbers = (count: number) => `[${Array(count).fill('1').join(',')}]`;
    expect(refusal(numbers(MAX_JSON_VALUES))).toBeNull();
    expect(refusal(numbers(MAX_JSON_VALUES + 1))).toMatchObject({
      status: 400,
      errors: [{ path: 'root', code: 'INVALID_FORMAT' }],
    });
    const members = (count: number) => `{${Array.from({ length: count }, (_, index) => `"${index}":0`).join(',')}}`;
    expect(refusal(members(MAX_JSON_VALUES))).toBeNull();
    expect(refusal(members(MAX_JSON_VALUES + 1))).not.toBeNull();
    // Commas inside strings are text, not values.
    expect(refusal(JSON.stringify([','.repeat(2 * MAX_JSON_VALUES)]))).toBeNull();
  });
});
