import { Ajv2020 } from 'ajv/dist/2020.js';

/** The parts of a served OpenAPI document the tests read. */
export type OpenApiOperation = {
  operationId: string;
  security: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required: boolean; example?: unknown }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown>; example?: unknown }> };
  responses: Record<
    string,
    {
      $ref?: string;
      content?: Record<string, { schema: { $ref?: string } & Record<string, unknown>; example?: unknown }>;
    }
  >;
};
export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    securitySchemes: Record<string, Record<string, string>>;
    schemas: Record<string, unknown>;
    responses: Record<string, OpenApiOperation['responses'][string]>;
  };
};

/** Every operation of a document with its method and path. */
export function documentOperations(
  document: OpenApiDocument,
): Array<{ method: string; path: string; operation: OpenApiOperation }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method, path, operation })),
  );
}

/**
 * Validates values against schemas of the document (draft 2020-12, as OpenAPI 3.1), with their
 * `$ref`s into `components` resolved. Returns Ajv's errors, empty when the value is valid.
 */
export function schemaValidator(document: OpenApiDocument): (schema: unknown, value: unknown) => unknown[] {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'document', components: document.components });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return (schema, value) => {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"document#/components/');
    let validate = cache.get(text);
    if (!validate) {
      validate = ajv.compile(JSON.parse(text));
      cache.set(text, validate);
    }
    return validate(value) ? [] : [...(validate.errors ?? [])];
  };
}
