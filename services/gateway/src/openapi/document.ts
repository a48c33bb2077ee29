import type { GatewayConfig } from '../config.ts';
import { adminOperations } from './admin.ts';
import { errorComponents } from './errors.ts';
import { openApiPath, operationObject, type OperationSpec } from './operation.ts';
import { publicOperations } from './public.ts';
import { executeOperations, webhookOperations } from './webhooks.ts';

/** The interface's version (docs/decisions.md#public-api-description). */
const API_VERSION = '1.0.0';

/** Every operation the gateway serves; the route-walk test checks this against the mounted app. */
export function gatewayOperations(config: GatewayConfig): OperationSpec[] {
  return [...publicOperations(), ...adminOperations(config), ...webhookOperations(), ...executeOperations()];
}

/**
 * Both schemes use `Authorization`, told apart by its value (docs/decisions.md#admin-keys, #webhooks). An admin key
 * is sent as `Admin <key>`; a user token bare or as `Bot`/`Bearer <token>`.
 */
const SECURITY_SCHEMES = {
  adminApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'An admin API key, sent as `Authorization: Admin <key>` (case-sensitive scheme). Keys carry ACLs: see `x-required-acls`.',
  },
  userToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'A user token: `Authorization: <token>`, `Bot <token>` or `Bearer <token>`. Managing a webhook needs MANAGE_WEBHOOKS in its guild.',
  },
};

/**
 * The OpenAPI 3.1 document of the gateway, built from the zod schemas the routes validate with.
 * It holds the public base URL and nothing else from configuration: no secret reaches it.
 */
export function buildOpenApiDocument(config: GatewayConfig): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of gatewayOperations(config)) {
    const key = openApiPath(spec.path);
    const item = paths[key] ?? {};
    paths[key] = item;
    if (item[spec.method]) throw new Error(`OpenAPI: ${spec.method.toUpperCase()} ${spec.path} is described twice`);
    item[spec.method] = operationObject(spec);
  }
  const errors = errorComponents();
  return {
    openapi: '3.1.1',
    info: {
      title: 'Switchboard API',
      version: API_VERSION,
      description:
        'Admin, discovery and webhook interface. Errors share one body (`code`, `message`, `errors[]`); a 429 adds `retry_after` and `global`.',
    },
    // Relative (the API's path on whatever host serves the document): "Try it out" on /docs
    // then calls the host the page was opened on, not PUBLIC_BASE_URL's name for it.
    servers: [{ url: new URL(config.endpoints.api).pathname }],
    tags: ['discovery', 'admin', 'webhooks', 'webhook execution', 'channels', 'operations'].map((name) => ({ name })),
    paths,
    components: { schemas: errors.schemas, responses: errors.responses, securitySchemes: SECURITY_SCHEMES },
  };
}
