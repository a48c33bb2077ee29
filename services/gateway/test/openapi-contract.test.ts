import { describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { ADMIN_ROUTES } from '@switchboard/contracts';
import { buildOpenApiDocument, gatewayOperations, parseGatewayConfig } from '../src/index.ts';
import { documentOperations, schemaValidator, type OpenApiDocument } from './openapi-helpers.ts';

const parsed = parseGatewayConfig({ DATABASE_URL: 'postgres://db/switchboard', REDIS_URL: 'redis://redis:6379' });
if (!parsed.ok) throw new Error(parsed.problems.join('; '));
const config = parsed.config;
const document = buildOpenApiDocument(config) as unknown as OpenApiDocument;
const operations = documentOperations(document);
const where = ({ method, path }: { method: string; path: string }) => `${method} ${path}`;

/** Nodes of a JSON Schema that say only "an object": what a generated client types as `Record<string, never>`. */
function bareObjects(schema: unknown, at: string): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, i) => bareObjects(item, `${at}/${i}`));
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const bare =
    node['type'] === 'object' && !('properties' in node) && !('additionalProperties' in node) && !('$ref' in node);
  return [...(bare ? [at] : []), ...Object.entries(node).flatMap(([key, child]) => bareObjects(child, `${at}/${key}`))];
}

function successResponses(operation: OpenApiDocument['paths'][string][string]) {
  return Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
}

describe('OpenAPI operation ids (docs/decisions.md#openapi-names)', () => {
  it('are snake_case, verb first, and unique', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('come from the ADMIN_ROUTES table for admin routes, and follow Discord where it names the route', () => {
    for (const route of ADMIN_ROUTES) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(document.paths[path]?.[route.method.toLowerCase()]?.operationId).toBe(route.operationId);
    }
    const idOf = (method: string, path: string) => document.paths[path]?.[method]?.operationId;
    expect(idOf('post', '/v1/admin/api-keys')).toBe('create_admin_api_key');
    expect(idOf('post', '/v1/admin/bans/ip/add')).toBe('add_ip_ban');
    expect(idOf('post', '/v1/admin/audit-logs')).toBe('list_audit_logs');
    expect(idOf('post', '/v1/webhooks/{webhook_id}/{token}')).toBe('execute_webhook');
    expect(idOf('post', '/v1/webhooks/{webhook_id}/{token}/github')).toBe('execute_github_compatible_webhook');
    expect(idOf('get', '/v1/webhooks/{webhook_id}')).toBe('get_webhook');
  });
});

describe('OpenAPI bodies', () => {
  it('type every success body: no bare object anywhere in a response or a named schema', () => {
    const bare = [
      ...operations.flatMap((op) =>
        successResponses(op.operation).flatMap(([status, response]) =>
          Object.values(response.content ?? {}).flatMap((media) => bareObjects(media.schema, `${where(op)} ${status}`)),
        ),
      ),
      ...Object.entries(document.components.schemas).flatMap(([name, schema]) => bareObjects(schema, name)),
    ];
    expect(bare).toEqual([]);
  });

  it('name the resources once in components.schemas and refer to them by $ref', () => {
    for (const name of ['Webhook', 'WebhookByToken', 'Message', 'UserPartial', 'Archive', 'IpBan', 'AuditLogEntry'])
      expect(Object.keys(document.components.schemas)).toContain(name);
    for (const name of ['ApiKey', 'CreatedApiKey', 'BanCheck', 'FailedJob', 'DiscoveryDocument', 'Error'])
      expect(Object.keys(document.components.schemas)).toContain(name);
    const text = JSON.stringify(document.paths);
    for (const name of ['Webhook', 'Message', 'Archive', 'IpBanList', 'AuditLogList', 'ApiKey', 'Error'])
      expect(text).toContain(`"$ref":"#/components/schemas/${name}"`);
    // A named schema is only ever referred to: its properties are not also written out inline.
    expect(text).not.toContain('"token":{"type":"string"}');
  });
});

describe('OpenAPI examples', () => {
  const validate = schemaValidator(document);

  it('give every request body and every success body an example that its schema accepts', () => {
    const problems: unknown[] = [];
    for (const op of operations) {
      const json = op.operation.requestBody?.content['application/json'];
      if (json) {
        if (json.example === undefined) problems.push(`${where(op)}: no request example`);
        else
          problems.push(...validate(json.schema, json.example).map((error) => ({ at: `${where(op)} request`, error })));
      }
      for (const [status, response] of successResponses(op.operation)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (media.example === undefined) problems.push(`${where(op)} ${status} ${type}: no example`);
          else if (type === 'application/json')
            problems.push(
              ...validate(media.schema, media.example).map((error) => ({ at: `${where(op)} ${status}`, error })),
            );
        }
      }
      for (const parameter of op.operation.parameters ?? [])
        if (parameter.in === 'path' && parameter.example === undefined)
          problems.push(`${where(op)}: no example for ${parameter.name}`);
    }
    expect(problems).toEqual([]);
  });

  it('are values the zod schemas themselves accept (refinements included)', () => {
    const problems: string[] = [];
    for (const spec of gatewayOperations(config)) {
      if (spec.body) {
        const result = spec.body.safeParse(spec.requestExample);
        if (!result.success) problems.push(`${spec.operationId} request: ${result.error.message}`);
      }
      for (const success of spec.success) {
        if (!success.schema) continue;
        const result = success.schema.safeParse(success.example);
        if (!result.success) problems.push(`${spec.operationId} ${success.status}: ${result.error.message}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('OpenAPI lint', () => {
  it("passes Redocly's recommended rules", async () => {
    const lintConfig = await createConfig({
      extends: ['recommended'],
      rules: {
        // Health routes run before everything that could answer 4xx (routes/health.ts).
        'operation-4xx-response': 'off',
        // The request schemas come from zod objects, which ignore unknown keys: JSON Schema's default.
        'no-invalid-media-type-examples': { severity: 'error', allowAdditionalProperties: true },
      },
    });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: '/v1/openapi.json',
      config: lintConfig,
    });
    expect(
      problems.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`),
    ).toEqual([]);
  });
});
