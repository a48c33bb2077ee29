import { describe, expect, it } from 'vitest';
import { createCachedEntity, ifNoneMatchMatches, strongEtag } from '../src/index.ts';

describe('strongEtag', () => {
  it('is a quoted digest that changes with the bytes', () => {
    const etag = strongEtag('{"a":1}');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(strongEtag('{"a":1}')).toBe(etag);
    expect(strongEtag('{"a":2}')).not.toBe(etag);
  });

  it('is computed once per cached entity', () => {
    const entity = createCachedEntity('{"a":1}', {
      contentType: 'application/json',
      cacheControl: 'public, max-age=60',
    });
    expect(entity.etag).toBe(strongEtag('{"a":1}'));
    expect(entity.body.equals(Buffer.from('{"a":1}'))).toBe(true);
    expect(Object.isFrozen(entity)).toBe(true);
  });
});

describe('ifNoneMatchMatches', () => {
  const etag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc" ,"y"', true],
    ['*', true],
    [' * ', true],
    ['"abcd"', false],
    ['"x", "y"', false],
    ['abc', false],
    ['', false],
  ])('%j → %s', (header, expected) => {
    expect(ifNoneMatchMatches(header, etag)).toBe(expected);
  });

  it('is false without the header', () => {
    expect(ifNoneMatchMatches(undefined, etag)).toBe(false);
  });
});
