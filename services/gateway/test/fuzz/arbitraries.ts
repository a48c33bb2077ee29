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
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\u202e', '\f', '🚀'.repeat(50), '-0', '1e309', 'NaN', '../../etc/passwd'),
  fc.constantFrom('9'.repeat(19), '9'.repeat(20), '9223372036854775808', '18446744073709551616', '-1', '0x10', ' 123 ', '1'.repeat(5_000)),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 32 }),
  fc.nat({ max: 300_000 }).map((length) => 'x'.repeat(length)),
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
      fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), hostileString), tie('value'), { maxKeys: 5 }),
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
  return fc.oneof({ weight: 8, arbitrary: shaped }, { weight: 1, arbitrary: hostileString }, { weight: 1, arbitrary: anyJson(3) });
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
      return fc.integer({ min: Math.max(schema.minimum ?? -1_000, -(2 ** 31)) - 1, max: Math.min(schema.maximum ?? 1_000, 2 ** 31) + 1 });
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
  const shape = Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, fromJsonSchema(child, depth + 1)]));
  // Required keys are usually present, optional ones often; unknown keys ride along sometimes.
  const records = fc.oneof(
    { weight: 9, arbitrary: fc.record(shape, { requiredKeys: schema.required ?? [] }) },
    { weight: 1, arbitrary: fc.record(shape, { requiredKeys: [] }) },
  );
  return fc.tuple(records, fc.dictionary(fc.string({ maxLength: 10 }), anyJson(2), { maxKeys: 2 })).map(([record, extra]) => ({ ...extra, ...record }));
}

/** A request body schema's input side, as JSON Schema: transforms and custom checks become `{}`. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}
