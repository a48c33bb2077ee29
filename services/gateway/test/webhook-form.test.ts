import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FORM_FIELDS, parseForm } from '../src/routes/webhooks/execute/form.ts';

/**
 * ASCII form text made of what the urlencoded parser treats specially (UTF-8 percent escapes
 * included). Raw non-ASCII is left to the cases below: Node's URLSearchParams mis-decodes it
 * beside a percent escape (`é%A9` is one U+FFFD there, `é` and U+FFFD by the standard).
 */
const formText = fc
  .array(
    fc.constantFrom(
      'a',
      'b',
      'payload',
      '=',
      '&',
      '&&',
      '+',
      '%',
      '%2',
      '%20',
      '%3D',
      '%26',
      '%C3',
      '%A9',
      '%F0%9F%9A%80',
      '%zz',
      '%2B',
      ' ',
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('form bodies (parseForm)', () => {
  it('decode ASCII text exactly as URLSearchParams does', () => {
    fc.assert(
      fc.property(formText, (text) => {
        const reference = new URLSearchParams(text);
        const form = parseForm(text, Infinity);
        expect(form.toObject()).toEqual(Object.fromEntries(reference));
        for (const name of new Set(reference.keys())) expect(form.get(name)).toBe(reference.get(name));
        expect(form.get('absent')).toBe(reference.get('absent'));
      }),
      { numRuns: 2_000, seed: 51 },
    );
  });

  it('decode raw UTF-8 and unpaired surrogates as the WHATWG urlencoded parser does', () => {
    expect(parseForm('é%A9=🚀+%F0%9F%9A%80').toObject()).toEqual({ 'é\ufffd': '🚀 🚀' });
    expect(parseForm('\ud800=x').get('\ufffd')).toBe('x');
  });

  it('parse 1 MiB of fields without `=` in linear time (URLSearchParams: seconds)', () => {
    const text = 'a&'.repeat(512 * 1024);
    // CPU time of this thread, not the wall clock: other processes on a loaded machine do not
    // count, and the parse is synchronous. The bound is far above a linear parse and far below
    // the quadratic one this guards against (docs/security.md#body-limits-and-timeouts).
    const started = process.threadCpuUsage();
    const form = parseForm(text, Infinity);
    const used = process.threadCpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(1_000);
    expect(form.get('a')).toBe('');
  });

  it(`refuse more than ${MAX_FORM_FIELDS} fields with a 400, empty ones not counted`, () => {
    expect(parseForm(`${'a=1&'.repeat(MAX_FORM_FIELDS)}&&`).get('a')).toBe('1');
    expect(() => parseForm('a&'.repeat(MAX_FORM_FIELDS + 1))).toThrow(
      expect.objectContaining({ status: 400, code: 'INVALID_FORM_BODY' }),
    );
  });
});
