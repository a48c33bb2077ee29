import { z } from 'zod';
import { snowflakeSchema } from '@switchboard/contracts';

/** A JSON Schema (draft 2020-12, the dialect OpenAPI 3.1 uses) as a plain object. */
export type JsonSchema = Record<string, unknown>;

/**
 * What snowflakeSchema accepts (docs/decisions.md#snowflake-ids). It validates in a transform, which JSON Schema
 * cannot see into, so its input is described here: a decimal string or a non-negative integer.
 */
const SNOWFLAKE_INPUT: JsonSchema = {
  description: 'Snowflake id: a decimal string, or a safe integer (always emitted as a string).',
  anyOf: [
    { type: 'string', pattern: '^[0-9]{1,20}$' },
    { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  ],
};

function convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    // Refinements and transforms check more than JSON Schema can say (an avatar's bytes, a
    // snowflake's range); what a client sends is still described by its type.
    unrepresentable: 'any',
    reused: 'inline',
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema !== snowflakeSchema) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
      Object.assign(jsonSchema, SNOWFLAKE_INPUT);
    },
  }) as JsonSchema;
  // OpenAPI 3.1's default dialect is this draft (with its own vocabulary): no per-schema $schema.
  delete json['$schema'];
  return json;
}

/** The request side of a schema that validates input: what a client may send. */
export function requestJsonSchema(schema: z.ZodType): JsonSchema {
  return convert(schema, 'input');
}

/** The response side of a schema the service answers with. */
export function responseJsonSchema(schema: z.ZodType): JsonSchema {
  return convert(schema, 'output');
}

/** The properties of an object schema as separate parameters (query strings, path segments). */
export function objectProperties(schema: z.ZodType): Array<{ name: string; schema: JsonSchema; required: boolean }> {
  const json = requestJsonSchema(schema);
  const properties = (json['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    schema: property,
    required: required.has(name),
  }));
}
