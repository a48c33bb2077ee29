import { describe, expect, it } from 'vitest';
import { ApiError, assertJsonDepth, MAX_JSON_DEPTH } from '../src/index.ts';

/** `depth` containers deep, alternating objects and arrays when `mixed`, as JSON.parse builds them. */
function nested(depth: number, mixed = false): unknown {
  let text = '"leaf"';
  for (let level = 0; level < depth; level++) text = mixed && level % 2 === 1 ? `[1,${text}]` : `{"a":1,"b":${text}}`;
  return JSON.parse(text);
}

describe('assertJsonDepth', () => {
  it(`takes exactly ${MAX_JSON_DEPTH} levels of objects or arrays, and refuses one more with a 400`, () => {
    for (const mixed of [false, true]) {
      expect(() => assertJsonDepth(nested(MAX_JSON_DEPTH, mixed))).not.toThrow();
      expect(() => assertJsonDepth(nested(MAX_JSON_DEPTH + 1, mixed))).toThrow(ApiError);
    }
  });

  it('finds the deep branch among shallow siblings, and through a key named __proto__', () => {
    const wide = { shallow: [1, 2, { x: 1 }], deep: nested(MAX_JSON_DEPTH), other: 'text' };
    expect(() => assertJsonDepth(wide)).toThrow(ApiError);
    const hidden = JSON.parse(`{"__proto__":${JSON.stringify(nested(MAX_JSON_DEPTH))}}`);
    expect(() => assertJsonDepth(hidden)).toThrow(ApiError);
  });

  it('takes scalars, empty containers and a 100,000-level body refused without overflowing the stack', () => {
    for (const value of [null, 1, 'text', true, {}, []]) expect(() => assertJsonDepth(value)).not.toThrow();
    expect(() => assertJsonDepth(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toThrow(ApiError);
  });
});
