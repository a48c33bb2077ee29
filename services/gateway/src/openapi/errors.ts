import { ERRORS, errorBodySchema, type ErrorCode } from '@switchboard/contracts';
import type { JsonSchema, SchemaComponents } from './json-schema.ts';

/** Component names the operations refer to. */
const ERROR_SCHEMA = '#/components/schemas/Error';
const RATE_LIMITED_RESPONSE = '#/components/responses/RateLimited';

/** Every request but health passes IP-ban enforcement (403, or 503 until bans are loaded) and may fail unexpectedly. */
export const EVERY_ROUTE: readonly ErrorCode[] = ['IP_BANNED', 'INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE'];

/** A JSON body read by jsonBody or the execute reader: malformed (400), too large (413), wrong type (415). */
export const BODY_READ: readonly ErrorCode[] = ['INVALID_FORM_BODY', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

/** The 429 of the interface (Errors part): its body and its headers. */
const RATE_LIMITED_BODY: JsonSchema = {
  type: 'object',
  properties: {
    code: { const: 'RATE_LIMITED' },
    message: { type: 'string' },
    retry_after: { type: 'integer', description: 'Seconds to wait before retrying (as Retry-After).' },
    global: { type: 'boolean', description: 'Whether the global limit was hit.' },
  },
  required: ['code', 'message', 'retry_after'],
};

/**
 * `components` shared by every operation: the error body (docs/decisions.md#error-bodies, named
 * `Error` in `components`, so registered there) and the 429.
 */
export function errorComponents(components: SchemaComponents): {
  schemas: Record<string, JsonSchema>;
  responses: Record<string, unknown>;
} {
  const error = components.response(errorBodySchema);
  if (error['$ref'] !== ERROR_SCHEMA) throw new Error('OpenAPI: the error body is not the Error component');
  return {
    schemas: { RateLimited: RATE_LIMITED_BODY },
    responses: {
      RateLimited: {
        description: '`RATE_LIMITED`: the bucket (or the global limit) is used up.',
        headers: {
          'Retry-After': integerHeader('Whole seconds to wait.'),
          'X-RateLimit-Limit': integerHeader('Requests per window.'),
          'X-RateLimit-Remaining': integerHeader('Requests left in the window.'),
          'X-RateLimit-Reset': integerHeader('Unix time (seconds) when the bucket is fully refilled.'),
          'X-RateLimit-Reset-After': {
            description: 'Seconds (millisecond decimals) until the bucket is fully refilled.',
            schema: { type: 'string' },
          },
          'X-RateLimit-Bucket': {
            description: 'The bucket that refused: its name with its route parameters, or `global`.',
            schema: { type: 'string' },
          },
          'X-RateLimit-Global': {
            description: 'Whether the global limit refused.',
            schema: { type: 'string', enum: ['true', 'false'] },
          },
        },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/RateLimited' } } },
      },
    },
  };
}

/**
 * The error responses of an operation from the codes it can answer with, grouped by the status
 * the contracts table gives each code, so a status and its codes cannot disagree with what the
 * error middleware sends. Each status lists its codes in its description.
 */
export function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const code of codes) {
    const status = ERRORS[code].status;
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  }
  const responses: Record<string, unknown> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    if (status === 429) {
      responses['429'] = { $ref: RATE_LIMITED_RESPONSE };
      continue;
    }
    const described = [...byStatus.get(status)!].map((code) => `\`${code}\`: ${ERRORS[code].message}`);
    responses[String(status)] = {
      description: described.join(' '),
      content: { 'application/json': { schema: { $ref: ERROR_SCHEMA } } },
    };
  }
  return responses;
}
