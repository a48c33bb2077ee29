import type { z } from 'zod';
import type { ErrorCode } from '@switchboard/contracts';
import { errorResponses } from './errors.ts';
import { objectProperties, type JsonSchema, type SchemaComponents } from './json-schema.ts';
import { pathParameterExample } from './examples/index.ts';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete' | 'options';

/** The security schemes of components.securitySchemes (see document.ts). */
export type Security = 'adminApiKey' | 'userToken' | 'none';

/** One success answer: its status, and its JSON body where a schema describes it. */
export interface SuccessSpec {
  status: number;
  description: string;
  /** The zod schema the body follows, where one exists. */
  schema?: z.ZodType;
  /** A body without a zod schema (a presenter's output, text). */
  json?: JsonSchema;
  contentType?: string;
  /** A body this answer could have; the openapi tests validate it against the schema. */
  example?: unknown;
}

/** A 200 JSON body whose zod schema the presenter is typed against, and an example of it. */
export const presented = (description: string, schema: z.ZodType, example: unknown): SuccessSpec => ({
  status: 200,
  description,
  schema,
  example,
});
export const NO_CONTENT: SuccessSpec = { status: 204, description: 'Done.' };

/**
 * One operation: the express path as mounted, and the very zod schemas its handler validates
 * with (imported from the route modules, never restated). The rest of the document is derived.
 */
export interface OperationSpec {
  method: HttpMethod;
  /**
   * The operation's name for generated clients: snake_case, verb first, unique in the document
   * (docs/decisions.md#openapi-names), never derived from the path.
   */
  operationId: string;
  /** Express syntax: `/v1/webhooks/:webhook_id`. */
  path: string;
  summary: string;
  /** Longer prose: who may call it, what a setting changes. */
  description?: string;
  tag: string;
  security: Security;
  /** Path parameters' schema; a parameter it does not name is a plain string. */
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The same body as an `application/x-www-form-urlencoded` form, where the route reads one. */
  formBody?: JsonSchema;
  /** A JSON body a client could send; required with `body`. */
  requestExample?: unknown;
  success: readonly SuccessSpec[];
  /** Every error code the route's chain and handler can answer with. */
  errors: readonly ErrorCode[];
  /** `x-` extensions (the admin ACLs and rate-limit bucket). */
  extensions?: Record<`x-${string}`, unknown>;
}

/** `/v1/webhooks/:webhook_id/:token` → `/v1/webhooks/{webhook_id}/{token}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function pathParameterNames(expressPath: string): string[] {
  return [...expressPath.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!);
}

function parameters(components: SchemaComponents, spec: OperationSpec): unknown[] {
  const typed = new Map(spec.params ? objectProperties(components, spec.params).map((p) => [p.name, p.schema]) : []);
  const path = pathParameterNames(spec.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: typed.get(name) ?? { type: 'string' },
    example: pathParameterExample(name),
  }));
  const query = spec.query
    ? objectProperties(components, spec.query).map((p) => ({
        name: p.name,
        in: 'query',
        required: p.required,
        schema: p.schema,
      }))
    : [];
  return [...path, ...query];
}

function successResponse(components: SchemaComponents, success: SuccessSpec): unknown {
  const schema = success.schema ? components.response(success.schema) : success.json;
  if (!schema) return { description: success.description };
  const media = { schema, ...(success.example === undefined ? {} : { example: success.example }) };
  return { description: success.description, content: { [success.contentType ?? 'application/json']: media } };
}

/** The OpenAPI Operation Object of a spec; the schemas it names are gathered into `components`. */
export function operationObject(components: SchemaComponents, spec: OperationSpec): Record<string, unknown> {
  const operation: Record<string, unknown> = {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    tags: [spec.tag],
    security: spec.security === 'none' ? [] : [{ [spec.security]: [] }],
  };
  const params = parameters(components, spec);
  if (params.length > 0) operation['parameters'] = params;
  if (spec.body) {
    const json = { schema: components.request(spec.body), example: spec.requestExample };
    const content: Record<string, unknown> = { 'application/json': json };
    if (spec.formBody) content['application/x-www-form-urlencoded'] = { schema: spec.formBody };
    operation['requestBody'] = { required: true, content };
  }
  operation['responses'] = {
    ...Object.fromEntries(
      spec.success.map((success) => [String(success.status), successResponse(components, success)]),
    ),
    ...errorResponses(spec.errors),
  };
  return { ...operation, ...spec.extensions };
}
