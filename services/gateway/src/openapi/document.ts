import type { GatewayConfig } from '../config.ts';
import { adminOperations } from './admin.ts';
import { errorComponents } from './errors.ts';
import { createSchemaComponents } from './json-schema.ts';
import { openApiPath, operationObject, type OperationSpec } from './operation.ts';
import { publicOperations } from './public.ts';
import { executeOperations } from './execute.ts';
import { webhookOperations } from './webhooks.ts';

/** What every operationId looks like (docs/decisions.md#openapi-names): `create_webhook`, `add_ip_ban`. */
export const OPERATION_ID = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/** The interface's version (docs/decisions.md#public-api-description). */
const API_VERSION = '1.0.0';

/** Every operation the gateway serves; the route-walk test checks this against the mounted app. */
export function gatewayOperations(config: GatewayConfig): OperationSpec[] {
  return [...publicOperations(config), ...adminOperations(config), ...webhookOperations(), ...executeOperations()];
}

/** The tags operations are grouped by, in the reference page's order. */
const TAGS = {
  discovery: 'The instance discovery document: endpoints, features and enforced limits.',
  admin: 'Admin plane: API keys, bans, audit logs, archives, purges, bulk operations, failed jobs.',
  webhooks: 'Webhook management, by id with a user token or by the webhook token.',
  'webhook execution': 'Posting through a webhook: plain, code-host, error-tracker and chat-app formats.',
  channels: 'Channel read models.',
  operations: 'Health, metrics, and this description.',
};

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
  const components = createSchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const spec of gatewayOperations(config)) {
    const key = openApiPath(spec.path);
    const item = paths[key] ?? {};
    paths[key] = item;
    if (item[spec.method]) throw new Error(`OpenAPI: ${spec.method.toUpperCase()} ${spec.path} is described twice`);
    if (!OPERATION_ID.test(spec.operationId) || operationIds.has(spec.operationId))
      throw new Error(`OpenAPI: operationId "${spec.operationId}" is not snake_case or not unique`);
    operationIds.add(spec.operationId);
    item[spec.method] = operationObject(components, spec);
  }
  const errors = errorComponents(components);
  return {
    openapi: '3.1.1',
    info: {
      title: 'Switchboard API',
      version: API_VERSION,
      description:
        'Admin, discovery and webhook interface. Errors share one body (`code`, `message`, `errors[]`); a 429 adds `retry_after` and `global`.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    // Relative (the API's path on whatever host serves the document): "Try it out" on /docs
    // then calls the host the page was opened on, not PUBLIC_BASE_URL's name for it.
    servers: [{ url: new URL(config.endpoints.api).pathname }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: { ...components.schemas(), ...errors.schemas },
      responses: errors.responses,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
