import { describe, expect, it } from 'vitest';
import { assertJsonContainers, isApiError, MAX_JSON_CONTAINERS } from '../src/index.ts';

/** `[{},{},…]` holding `count` objects inside the one array. */
function emptyObjects(count: number): string {
  return `[${Array(count).fill('{}').join(',')}]`;
}

function refusal(text: string, path?: string): unknown {
  try {
    assertJsonContainers(text, path);
    return null;
  } catch (error) {
    return isApiError(error) ? { status: error.status, code: error.code, errors: error.errors } : error;
  }
}

describe('assertJsonContainers', () => {
  it('refuses one object or array past the limit with a 400 at the path given', () => {
    expect(refusal(emptyObjects(MAX_JSON_CONTAINERS - 1))).toBeNull();
    expect(refusal(emptyObjects(MAX_JSON_CONTAINERS))).toMatchObject({
      status: 400,
      code: 'INVALID_FORM_BODY',
      errors: [{ path: 'root', code: 'INVALID_FORMAT' }],
    });
    expect(refusal(`[${Array(MAX_JSON_CONTAINERS).fill('[]').join(',')}]`, 'payload')).toMatchObject({ errors: [{ path: 'payload' }] });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const brackets = '{['.repeat(MAX_JSON_CONTAINERS);
    expect(refusal(JSON.stringify({ text: brackets }))).toBeNull();
    expect(refusal(JSON.stringify({ text: `\\"${brackets}` }))).toBeNull();
    expect(refusal(JSON.stringify([`"${brackets}`, brackets]))).toBeNull();
  });

  it('lets through long texts of few containers (numbers, strings)', () => {
    expect(refusal(`[${Array(5_000_000).fill('1').join(',')}]`)).toBeNull();
  });
});
