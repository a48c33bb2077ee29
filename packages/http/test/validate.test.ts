import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, dropEmptyStrings, issuesToItems, validate } from '../src/index.ts';

describe('dropEmptyStrings', () => {
  it('drops "" properties at any depth and keeps everything else', () => {
    expect(dropEmptyStrings({ a: '', b: 'x', c: { d: '', e: 0, f: null, g: false }, h: [{ i: '' }, '', 'y'] })).toEqual(
      { b: 'x', c: { e: 0, f: null, g: false }, h: [{}, '', 'y'] },
    );
  });

  it('drops __proto__, constructor and prototype keys at any depth, so no copy takes a prototype from the input', () => {
    const input = JSON.parse(
      '{"__proto__":{"admin":true},"a":{"constructor":{"prototype":{"x":1}},"b":1},"prototype":2}',
    ) as unknown;
    const copied = dropEmptyStrings(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(copied['admin']).toBeUndefined();
    expect(copied).toEqual({ a: { b: 1 } });
    expect(() => validate(z.object({ admin: z.literal(true) }), input)).toThrow(ApiError);
  });

  it('leaves non-objects alone', () => {
    expect(dropEmptyStrings('')).toBe('');
    expect(dropEmptyStrings(null)).toBeNull();
    expect(dropEmptyStrings(7)).toBe(7);
  });
});

describe('validate', () => {
  const schema = z.object({ limit: z.number().int().min(1).default(50), cursor: z.string().optional() });

  it('applies defaults and treats "" as absent', () => {
    expect(validate(schema, { cursor: '' })).toEqual({ limit: 50 });
  });

  it('throws a 400 INVALID_FORM_BODY ApiError listing the problems', () => {
    let caught: unknown;
    try {
      validate(schema, { limit: 0, cursor: 5 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    const apiError = caught as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.toBody()).toMatchObject({
      code: 'INVALID_FORM_BODY',
      errors: [
        { path: 'limit', code: 'TOO_SMALL' },
        { path: 'cursor', code: 'INVALID_TYPE' },
      ],
    });
  });
  it('refuses NUL in any string or key before the schema, naming where it is', () => {
    const anything = z.unknown();
    const nulAt = (input: unknown) => {
      try {
        validate(anything, input);
        return null;
      } catch (error) {
        const body = (error as ApiError).toBody() as { code: string; errors: Array<{ path: string; code: string }> };
        expect(body.code).toBe('INVALID_FORM_BODY');
        expect(body.errors[0]!.code).toBe('INVALID_CHARACTERS');
        return body.errors[0]!.path;
      }
    };
    expect(nulAt('a\u0000')).toBe('root');
    expect(nulAt({ ids: ['1', '2', 'x\u0000'] })).toBe('ids.2');
    expect(nulAt({ a: { b: [{ c: 'ok' }, { 'd\u0000': 1 }] } })).toBe('a.b.1.d\u0000');
    expect(nulAt({ a: [[['deep\u0000']]] })).toBe('a.0.0.0');
    expect(nulAt({ a: ['no', { b: 'nul here' }], c: null, d: 5, e: [null, 1, true] })).toBeNull();
  });
});

describe('issuesToItems', () => {
  it('joins paths with dots, names the root, and drops duplicate (path, code) pairs', () => {
    const items = issuesToItems([
      { code: 'custom', path: [], message: 'bad', input: 1 },
      { code: 'invalid_type', path: ['a', 0, 'b'], message: 'one', expected: 'string', input: 1 },
      { code: 'invalid_type', path: ['a', 0, 'b'], message: 'two', expected: 'string', input: 1 },
      { code: 'invalid_format', path: ['email'], message: 'Invalid email', format: 'email' },
    ]);
    expect(items).toEqual([
      { path: 'root', message: 'bad', code: 'INVALID_FORMAT' },
      { path: 'a.0.b', message: 'one', code: 'INVALID_TYPE' },
      { path: 'email', message: 'Invalid email', code: 'INVALID_FORMAT' },
    ]);
  });
});
