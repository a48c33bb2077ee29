import { z } from 'zod';
import { apiSchemas, snowflakeSchema } from '@switchboard/contracts';

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

const COMPONENT_PREFIX = '#/components/schemas/';

/** `#/$defs/Webhook` (where zod puts a named schema) → `#/components/schemas/Webhook`, everywhere in `value`. */
function pointRefsAtComponents(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) pointRefsAtComponents(item);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as JsonSchema;
  if (typeof node['$ref'] === 'string' && node['$ref'].startsWith('#/$defs/'))
    node['$ref'] = COMPONENT_PREFIX + node['$ref'].slice('#/$defs/'.length);
  for (const child of Object.values(node)) pointRefsAtComponents(child);
}

function convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    // The schemas registered in apiSchemas come out as `$defs` entries and `$ref`s to them.
    metadata: apiSchemas,
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

/**
 * Converts zod schemas for one document and gathers the named ones (apiSchemas,
 * docs/decisions.md#openapi-names) into `components.schemas`: each operation then refers to
 * them by `$ref`, so a Webhook is one type for a generated client, not one per operation.
 */
export interface SchemaComponents {
  /** The request side of a schema that validates input: what a client may send. */
  request(schema: z.ZodType): JsonSchema;
  /** The response side of a schema the service answers with. */
  response(schema: z.ZodType): JsonSchema;
  /** Every named schema met so far, by name. */
  schemas(): Record<string, JsonSchema>;
}

export function createSchemaComponents(): SchemaComponents {
  const named = new Map<string, { json: JsonSchema; text: string }>();
  const collect = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const json = convert(schema, io);
    const defs = (json['$defs'] ?? {}) as Record<string, JsonSchema>;
    delete json['$defs'];
    pointRefsAtComponents(json);
    for (const [name, def] of Object.entries(defs)) {
      pointRefsAtComponents(def);
      const text = JSON.stringify(def);
      const known = named.get(name);
      // A name is one type: the same schema read as input and as output can differ (defaults,
      // closed objects), and a client would then be told two shapes under one name.
      if (known && known.text !== text) throw new Error(`OpenAPI: schema "${name}" converts to two shapes`);
      named.set(name, { json: def, text });
    }
    return json;
  };
  return {
    request: (schema) => collect(schema, 'input'),
    response: (schema) => collect(schema, 'output'),
    schemas: () => Object.fromEntries([...named].sort(([a], [b]) => a.localeCompare(b)).map(([n, v]) => [n, v.json])),
  };
}

/** The properties of an object schema as separate parameters (query strings, path segments). */
export function objectProperties(
  components: SchemaComponents,
  schema: z.ZodType,
): Array<{ name: string; schema: JsonSchema; required: boolean }> {
  const json = components.request(schema);
  const properties = (json['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    schema: property,
    required: required.has(name),
  }));
}
