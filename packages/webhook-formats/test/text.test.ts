import { describe, expect, it } from 'vitest';
import { isStorableText, storableStrings } from '../src/index.ts';

describe('storable text', () => {
  it('tells NUL and unpaired surrogates from text PostgreSQL stores, pairs and U+FFFD included', () => {
    expect(isStorableText('emoji 😀 and \ufffd')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('half \ud800 pair')).toBe(false);
    expect(isStorableText('low \udc00 first')).toBe(false);
  });

  it('cleans every string of a message, keys included, and keeps everything else', () => {
    const message = {
      content: 'a\u0000b',
      embeds: [{ title: '\ud83d', fields: [{ name: 'n\u0000', value: '😀' }], color: 5 }],
      flags: 4,
      'k\u0000': null,
    };
    expect(storableStrings(message)).toEqual({
      content: 'ab',
      embeds: [{ title: '\ufffd', fields: [{ name: 'n', value: '😀' }], color: 5 }],
      flags: 4,
      k: null,
    });
  });

  it('returns a message that is storable already as it is, and copies one with a single bad string deep down', () => {
    const clean = {
      content: 'fine 😀',
      embeds: [{ title: 't', fields: [{ name: 'n', value: 'v' }], color: 5 }],
      flags: 4,
      nothing: null,
    };
    expect(storableStrings(clean)).toBe(clean);
    const deep = { ...clean, embeds: [{ ...clean.embeds[0]!, fields: [{ name: 'n', value: 'v\u0000' }] }] };
    const cleaned = storableStrings(deep);
    expect(cleaned).not.toBe(deep);
    expect(cleaned.embeds[0]!.fields[0]!.value).toBe('v');
    expect(deep.embeds[0]!.fields[0]!.value).toBe('v\u0000');
  });
});
