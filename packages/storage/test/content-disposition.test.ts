import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../src/index.ts';

/** Reads back the two filename forms the way a browser does. */
function parse(header: string): { fallback: string; exact: string } {
  const fallback = /filename="([^"]*)"/.exec(header)?.[1];
  const encoded = /filename\*=UTF-8''([^;\s]*)/.exec(header)?.[1];
  if (fallback === undefined || encoded === undefined) throw new Error(`unparsable: ${header}`);
  return { fallback, exact: decodeURIComponent(encoded) };
}

describe('attachmentDisposition', () => {
  it.each([
    ['report.zip', 'report.zip'],
    ['Résumé – 2026 档案.zip', 'R_sum_ _ 2026 __.zip'],
    ['say "hi" \\ 100%.txt', 'say _hi_ _ 100_.txt'],
    ["it's (final) *copy*.txt", "it's (final) *copy*.txt"],
    ['line\r\nbreak.txt', 'line__break.txt'],
    ['emoji 🎉.txt', 'emoji _.txt'],
  ])('keeps %j exactly and falls back to ASCII', (filename, fallback) => {
    const header = attachmentDisposition(filename);
    expect(header.startsWith('attachment; ')).toBe(true);
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(parse(header)).toEqual({ fallback, exact: filename });
  });

  it('encodes the characters RFC 5987 does not allow bare', () => {
    expect(attachmentDisposition("a'b(c)*.txt")).toContain("filename*=UTF-8''a%27b%28c%29%2A.txt");
  });

  it('replaces a lone surrogate instead of throwing', () => {
    expect(parse(attachmentDisposition('bad\uD800.txt')).exact).toBe('bad\uFFFD.txt');
  });

  it('refuses an empty filename', () => {
    expect(() => attachmentDisposition('')).toThrow();
  });
});
