import { z } from 'zod';

/** What the OpenAPI document is told about a named schema. */
export interface ApiSchemaMeta {
  /** Its name in `components.schemas`: PascalCase, unique. */
  id: string;
  description?: string;
}

/**
 * The schemas the gateway's OpenAPI document names in `components.schemas` and refers to by
 * `$ref` (docs/decisions.md#openapi-names). A registry of its own rather than zod's global one,
 * so no other JSON Schema conversion (the fuzz arbitraries) sees these names.
 */
export const apiSchemas = z.registry<ApiSchemaMeta>();

const named = new Map<string, z.ZodType>();

/** Registers `schema` under `id` and returns it; a second schema under the same id is a mistake. */
export function apiSchema<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  const existing = named.get(id);
  if (existing !== undefined && existing !== schema) throw new Error(`API schema "${id}" is named twice`);
  named.set(id, schema);
  apiSchemas.add(schema, description === undefined ? { id } : { id, description });
  return schema;
}
