import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { z } from 'zod';

/** A JSON Schema node as zod's z.toJSONSchema writes it (only the keywords read here). */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
}

/** Strings a hostile client sends: control characters, unpaired surrogates, huge, numeric, path-like. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '\u202e',
    '\f',
    '🚀'.repeat(50),
    '-0',
    '1e309',
    'NaN',
    '../../etc/passwd',
  ),
  fc.constantFrom(
    '9'.repeat(19),
    '9'.repeat(20),
    '9223372036854775808',
    '18446744073709551616',
    '-1',
    '0x10',
    ' 123 ',
    '1'.repeat(5_000),
  ),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 32 }),
  fc.nat({ max: 300_000 }).map((length) => 'x'.repeat(length)),
);

/** Keys that set or reach a prototype when a parsed object is copied by assignment. */
export const prototypeKey: fc.Arbitrary<string> = fc.constantFrom('__proto__', 'constructor', 'prototype');

/** An object key: mostly ordinary, sometimes hostile, sometimes a prototype key. */
const objectKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: hostileString },
  { weight: 1, arbitrary: prototypeKey },
);

/** Any JSON value, hostile strings included, with nesting up to `depth`. */
export function anyJson(depth = 6): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: depth },
      fc.constant(null),
      fc.boolean(),
      fc.oneof(fc.integer(), fc.double(), fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308)),
      hostileString,
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(objectKey, tie('value'), { maxKeys: 5 }),
    ),
  })).value;
}

/**
 * Values shaped by a JSON Schema, mostly inside its bounds and sometimes just outside them, with
 * a hostile value in place of any node now and then: close enough to valid to reach the
 * handlers behind validation, far enough to test the validation itself.
 */
export function fromJsonSchema(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedBy(schema, depth);
  return fc.oneof(
    { weight: 8, arbitrary: shaped },
    { weight: 1, arbitrary: hostileString },
    { weight: 1, arbitrary: anyJson(3) },
  );
}

function shapedBy(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return anyJson(2);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((option) => fromJsonSchema(option, depth + 1)));
  if (schema.allOf?.length) return fromJsonSchema(schema.allOf[0]!, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return objectOf(schema, depth);
    case 'array':
      return fc.array(fromJsonSchema(schema.items ?? {}, depth + 1), {
        minLength: Math.max(0, (schema.minItems ?? 0) - 1),
        maxLength: Math.min((schema.maxItems ?? 5) + 1, 1_100),
      });
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000, -(2 ** 31)) - 1,
        max: Math.min(schema.maximum ?? 1_000, 2 ** 31) + 1,
      });
    case 'number':
      return fc.double({ min: (schema.minimum ?? -1e6) - 1, max: (schema.maximum ?? 1e6) + 1, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      // `{}`: zod's rendering of a custom check (snowflakes, ids): anything a client might send there.
      return fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String), fc.nat(), hostileString);
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'email') return fc.oneof(fc.emailAddress(), hostileString);
  const minLength = Math.max(0, (schema.minLength ?? 0) - 1);
  const maxLength = Math.min((schema.maxLength ?? 40) + 1, 10_000);
  return fc.string({ unit: 'grapheme-ascii', minLength, maxLength });
}

function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const shape = Object.fromEntries(
    Object.entries(properties).map(([key, child]) => [key, fromJsonSchema(child, depth + 1)]),
  );
  // Required keys are usually present, optional ones often; unknown keys ride along sometimes.
  const records = fc.oneof(
    { weight: 9, arbitrary: fc.record(shape, { requiredKeys: schema.required ?? [] }) },
    { weight: 1, arbitrary: fc.record(shape, { requiredKeys: [] }) },
  );
  // Spread, not assigned: a `__proto__` key stays an own key, and is sent.
  return fc
    .tuple(records, fc.dictionary(objectKey, anyJson(2), { maxKeys: 2 }))
    .map(([record, extra]) => ({ ...extra, ...record }));
}

/** A request body schema's input side, as JSON Schema: transforms and custom checks become `{}`. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** A body sent in pieces (chunked, no Content-Length), `delayMs` apart. */
export interface PiecewiseBody {
  pieces: Uint8Array[];
  delayMs: number;
}

/** How a body travels: headers to add, and its bytes at once or in pieces. */
export interface BodyDelivery {
  headers: Record<string, string>;
  body: Uint8Array | PiecewiseBody;
}

const ENCODERS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;

/**
 * How a body is sent: as is or compressed (gzip, deflate, br), a compressed one now and then cut
 * short; at once (Content-Length) or chunked, in up to four pieces, now and then slowly (well
 * within the body-read timeouts, so a slow body must still be answered as a fast one).
 */
export const bodyTransport = fc.record({
  encoding: fc.oneof(
    { weight: 5, arbitrary: fc.constant('identity' as const) },
    { weight: 3, arbitrary: fc.constantFrom('gzip' as const, 'deflate' as const, 'br' as const) },
  ),
  /** Where a compressed body is cut, as a share of its length; null: whole. */
  cutAt: fc.option(fc.double({ min: 0, max: 0.99, noNaN: true }), { freq: 4 }),
  chunked: fc.boolean(),
  pieces: fc.integer({ min: 1, max: 4 }),
  delayMs: fc.constantFrom(0, 0, 0, 5, 40),
});

export type BodyTransport = typeof bodyTransport extends fc.Arbitrary<infer T> ? T : never;

/** `bytes` as `transport` sends them. */
export function deliver(bytes: Uint8Array, transport: BodyTransport): BodyDelivery {
  let body = bytes;
  const headers: Record<string, string> = {};
  if (transport.encoding !== 'identity') {
    const encoded = ENCODERS[transport.encoding](bytes);
    body = transport.cutAt === null ? encoded : encoded.subarray(0, Math.floor(encoded.length * transport.cutAt));
    headers['content-encoding'] = transport.encoding;
  }
  if (!transport.chunked && transport.delayMs === 0) return { headers, body };
  const size = Math.ceil(body.length / transport.pieces) || 1;
  const pieces = Array.from({ length: transport.pieces }, (_, index) =>
    body.subarray(index * size, (index + 1) * size),
  ).filter((piece) => piece.length > 0);
  return { headers, body: { pieces, delayMs: transport.delayMs } };
}

/**
 * A form body for `suffix`'s format: the JSON document as `payload` (Slack, GitHub) or
 * `payload_json`, or a plain execute's fields themselves; now and then thousands of fields
 * without `=`, which URLSearchParams decoded in quadratic time.
 */
export function formOf(value: unknown, suffix: string): fc.Arbitrary<string> {
  const document = JSON.stringify(value);
  const fields =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? new URLSearchParams(
          Object.entries(value).map(([key, field]): [string, string] => [
            key,
            typeof field === 'string' ? field : JSON.stringify(field),
          ]),
        ).toString()
      : document;
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constant(
        new URLSearchParams({ [suffix === '' ? 'payload_json' : 'payload']: document }).toString(),
      ),
    },
    { weight: 2, arbitrary: fc.constant(fields) },
    { weight: 1, arbitrary: fc.nat({ max: 20_000 }).map((count) => 'a&'.repeat(count)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(prototypeKey, fc.constant(document))
        .map(
          ([key, json]) => `${encodeURIComponent(key)}=${encodeURIComponent(json)}&payload=${encodeURIComponent(json)}`,
        ),
    },
  );
}
