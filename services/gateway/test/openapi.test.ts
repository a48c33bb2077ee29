import type { Express } from 'express';
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ACL, ADMIN_ROUTES } from '@switchboard/contracts';
import { call, type Answer } from '@switchboard/testkit/http';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { CONSOLE_PATH } from '../src/console/index.ts';
import { DASHBOARD_PATH } from '../src/dashboard/index.ts';
import { buildOpenApiDocument, openApiPath, parseGatewayConfig } from '../src/index.ts';
import { adminCall, createAdmin } from './admin-helpers.ts';
import { schemaValidator, type OpenApiDocument } from './openapi-helpers.ts';
import { uniqueClient, useGateway } from './helpers.ts';

const environment = useTestEnvironment();
// One proxy hop, so each request below can come from a client address of its own (no shared budgets).
const gateway = useGateway(environment, { TRUSTED_PROXY_HOPS: '1' });

interface MountedRoute {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  slash?: boolean;
  match(path: string): boolean;
}

/**
 * Every method + path the app's express 5 router stack serves, nested routers included. `all()`
 * handlers (the 405 answers) serve no method of their own and are left out; a router mounted
 * under a path prefix would lose it here, so the walk refuses one.
 */
function mountedRoutes(app: Express): MountedRoute[] {
  const routes: MountedRoute[] = [];
  const walk = (stack: Layer[]): void => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) {
          if (method !== '_all') routes.push({ method, path: layer.route.path });
        }
      } else if (layer.handle.stack) {
        // The queue dashboard (HTML pages and bull-board's own API, behind a session cookie) is
        // an operator's tool, not part of the API: its one API route, the session, is an admin route.
        if (!layer.slash && layer.match(`${DASHBOARD_PATH}/`)) continue;
        // So is the console: HTML pages whose every action is a call to the admin API.
        if (!layer.slash && layer.match(`${CONSOLE_PATH}/`)) continue;
        if (!layer.slash) throw new Error('a router mounted under a path prefix: teach the walk its prefix');
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return routes;
}

type Document = OpenApiDocument;
type Operation = Document['paths'][string][string];

async function fetchDocument(): Promise<Document> {
  const answer = await call('GET', `${gateway.url}/v1/openapi.json`, { headers: uniqueClient() });
  expect(answer.status).toBe(200);
  return answer.body as Document;
}

function operationOf(document: Document, route: MountedRoute): Operation | undefined {
  return document.paths[openApiPath(route.path)]?.[route.method];
}

const statuses = (operation: Operation): string[] => Object.keys(operation.responses);

/** A request for a route with placeholder path values: snowflake-shaped ids, a token that names nothing. */
function concretePath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_match, name: string) =>
    name === 'token' ? 'no-such-token' : name === 'subjectType' ? 'user' : '1',
  );
}

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, public and cacheable, holding no secret', async () => {
    const answer = await call('GET', `${gateway.url}/v1/openapi.json`, { headers: uniqueClient() });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const validator = new Validator();
    const result = await validator.validate(answer.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');

    const etag = answer.headers.get('etag')!;
    const again = await call('GET', `${gateway.url}/v1/openapi.json`, {
      headers: { ...uniqueClient(), 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);

    const text = JSON.stringify(answer.body);
    const secrets = Object.entries(gateway.config).filter(
      ([key, value]) =>
        typeof value === 'string' &&
        value.length >= 6 &&
        /DATABASE_URL|REDIS_URL|SECRET|PASSWORD|ACCESS_KEY|CREDENTIAL/.test(key),
    );
    expect(secrets.length).toBeGreaterThan(0);
    for (const [key, value] of secrets) expect(text.includes(value as string), key).toBe(false);
  });

  it('names its server by path only, so "Try it out" calls the host the page was opened on', async () => {
    const served = await call('GET', `${gateway.url}/v1/openapi.json`, { headers: uniqueClient() });
    expect((served.body as { servers: unknown }).servers).toEqual([{ url: '/' }]);
    const stores = { DATABASE_URL: 'postgres://db/switchboard', REDIS_URL: 'redis://redis:6379' };
    const behindPrefix = parseGatewayConfig({ ...stores, PUBLIC_BASE_URL: 'https://chat.example.com/api/' });
    if (!behindPrefix.ok) throw new Error(behindPrefix.problems.join('; '));
    expect(buildOpenApiDocument(behindPrefix.config)['servers']).toEqual([{ url: '/api' }]);
  });

  it('describes every mounted route with its parameters, responses and error bodies, and nothing else', async () => {
    const document = await fetchDocument();
    const mounted = mountedRoutes(gateway.app);
    // The walk sees every area: admin table, webhook management and execution (with aliases), channels, discovery, health.
    for (const path of [
      '/v1/admin/bans/ip/add',
      '/v1/webhooks/:webhook_id/:token/github',
      '/v1/webhooks/:webhook_id/:token/slack',
      '/v1/channels/:channel_id/messages',
      '/.well-known/service',
      '/readyz',
      '/docs',
    ]) {
      expect(mounted.map((route) => route.path)).toContain(path);
    }
    for (const route of ADMIN_ROUTES)
      expect(mounted).toContainEqual({ method: route.method.toLowerCase(), path: route.path });

    const missing = mounted
      .filter((route) => !operationOf(document, route))
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    const served = new Set(mounted.map((route) => `${route.method} ${openApiPath(route.path)}`));
    expect(documented.filter((operation) => !served.has(operation))).toEqual([]);

    for (const route of mounted) {
      const operation = operationOf(document, route)!;
      const where = `${route.method} ${route.path}`;
      const pathParams = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => parameter.name);
      expect(pathParams, where).toEqual([...route.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]));
      expect(
        statuses(operation).some((status) => /^2\d\d$/.test(status)),
        where,
      ).toBe(true);
      if (route.method === 'post' || route.method === 'patch') {
        expect(operation.requestBody?.content['application/json']?.schema, where).toBeDefined();
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const schema = response.$ref ?? response.content?.['application/json']?.schema.$ref;
        expect(schema, `${where} ${status}`).toBe(
          status === '429' ? '#/components/responses/RateLimited' : '#/components/schemas/Error',
        );
      }
    }
  });

  it('gives each family of routes the statuses its chain produces, and admin routes the admin key scheme', async () => {
    const document = await fetchDocument();
    expect(document.components.securitySchemes['adminApiKey']).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    expect(document.components.securitySchemes['userToken']).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    const expectStatuses = (method: string, path: string, expected: string[], security: string | null) => {
      const operation = operationOf(document, { method, path })!;
      expect(statuses(operation), `${method} ${path}`).toEqual(expect.arrayContaining(expected));
      expect(operation.security, `${method} ${path}`).toEqual(security === null ? [] : [{ [security]: [] }]);
    };
    for (const route of ADMIN_ROUTES)
      expectStatuses(route.method.toLowerCase(), route.path, ['400', '401', '403', '413', '429', '503'], 'adminApiKey');
    for (const [method, path] of [
      ['get', '/v1/channels/:channel_id/webhooks'],
      ['post', '/v1/channels/:channel_id/webhooks'],
      ['patch', '/v1/webhooks/:webhook_id'],
    ]) {
      expectStatuses(method!, path!, ['400', '401', '403', '404', '429'], 'userToken');
    }
    for (const suffix of ['', '/codehost', '/github', '/errortracker', '/sentry', '/chatapp', '/slack']) {
      expectStatuses(
        'post',
        `/v1/webhooks/:webhook_id/:token${suffix}`,
        ['400', '404', '413', '415', '429', '503'],
        null,
      );
    }
    expectStatuses('post', '/v1/webhooks/:webhook_id/:token/github', ['401'], null);
    expectStatuses('get', '/v1/channels/:channel_id/messages', ['400', '401', '403', '404', '429'], 'userToken');
    expectStatuses('get', '/.well-known/service', ['200', '304', '429'], null);
    expectStatuses('get', '/readyz', ['200', '503'], null);
  });

  it('documents the status each route really answers an anonymous request with', async () => {
    const document = await fetchDocument();
    for (const route of mountedRoutes(gateway.app)) {
      const body = route.method === 'post' || route.method === 'patch' ? {} : undefined;
      const answer = await call(route.method.toUpperCase(), `${gateway.url}${concretePath(route.path)}`, {
        headers: uniqueClient(),
        body,
      });
      expect(
        statuses(operationOf(document, route)!),
        `${route.method} ${route.path} answered ${answer.status}`,
      ).toContain(String(answer.status));
    }
  });
});

/**
 * Checks a real answer against what the document says the operation answers with that status:
 * the status is listed, and a JSON body validates against its schema (components resolved).
 */
function expectDocumented(document: Document, method: string, path: string, answer: Answer): void {
  const operation = operationOf(document, { method, path })!;
  let response = operation.responses[String(answer.status)];
  expect(response, `${method} ${path} answered ${answer.status}`).toBeDefined();
  if (response!.$ref) response = document.components.responses[response!.$ref.split('/').at(-1)!];
  const schema = response!.content?.['application/json']?.schema;
  if (!schema) return;
  const errors = schemaValidator(document)(schema, answer.body);
  expect(errors, `${method} ${path} ${answer.status}: ${JSON.stringify(answer.body)}`).toEqual([]);
}

describe('documented responses', () => {
  it('match what the routes answer: presented bodies and error bodies', async () => {
    const document = await fetchDocument();
    const webhook = await createWebhookFixture(gateway.pool);
    const tokenPath = `/v1/webhooks/${webhook.webhookId}/${webhook.token}`;
    const asOwner = { token: webhook.ownerToken, headers: uniqueClient() };

    expectDocumented(
      document,
      'get',
      '/v1/webhooks/:webhook_id/:token',
      await call('GET', `${gateway.url}${tokenPath}`, { headers: uniqueClient() }),
    );
    expectDocumented(
      document,
      'get',
      '/v1/webhooks/:webhook_id',
      await call('GET', `${gateway.url}/v1/webhooks/${webhook.webhookId}`, asOwner),
    );
    const listed = await call('GET', `${gateway.url}/v1/channels/${webhook.channelId}/webhooks`, asOwner);
    expect(listed.body).toHaveLength(1);
    expectDocumented(document, 'get', '/v1/channels/:channel_id/webhooks', listed);
    const renamed = await call('PATCH', `${gateway.url}${tokenPath}`, {
      headers: uniqueClient(),
      body: { name: 'renamed' },
    });
    expect(renamed.status).toBe(200);
    expectDocumented(document, 'patch', '/v1/webhooks/:webhook_id/:token', renamed);
    const invalid = await call('POST', `${gateway.url}/v1/channels/${webhook.channelId}/webhooks`, {
      ...asOwner,
      body: { name: '' },
    });
    expect(invalid.status).toBe(400);
    expectDocumented(document, 'post', '/v1/channels/:channel_id/webhooks', invalid);
    expectDocumented(
      document,
      'get',
      '/v1/webhooks/:webhook_id',
      await call('GET', `${gateway.url}/v1/webhooks/${webhook.webhookId}`, { headers: uniqueClient() }),
    );

    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    const created = await adminCall(gateway.url, {
      method: 'POST',
      path: '/v1/admin/api-keys',
      key: admin.key,
      body: { name: 'docs', acls: [ACL.apiKeyManage] },
    });
    expect(created.status).toBe(200);
    expectDocumented(document, 'post', '/v1/admin/api-keys', created);
    expectDocumented(
      document,
      'get',
      '/v1/admin/api-keys',
      await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/api-keys', key: admin.key }),
    );
    const refused = await adminCall(gateway.url, {
      method: 'POST',
      path: '/v1/admin/bans/ip/add',
      key: admin.key,
      body: { ip: '192.0.2.1' },
    });
    expect(refused.status).toBe(403);
    expectDocumented(document, 'post', '/v1/admin/bans/ip/add', refused);
  });
});

describe('GET /docs', () => {
  it('serves the reference page and its assets from this server, under a self-only CSP', async () => {
    const page = await call('GET', `${gateway.url}/docs`, { headers: uniqueClient() });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const html = page.body as string;
    expect(html).not.toMatch(/<script>|https?:\/\//);

    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBe(3);
    for (const asset of assets) {
      const url = new URL(asset, `${gateway.url}/docs`).toString();
      const answer = await call('GET', url, { headers: uniqueClient() });
      expect(answer.status, asset).toBe(200);
      expect(answer.headers.get('content-type'), asset).toMatch(asset.endsWith('.css') ? /^text\/css/ : /javascript/);
      expect(answer.headers.get('cache-control'), asset).toMatch(/immutable/);
    }
    // Only the files the page uses: not the package's demo page or source maps.
    const assetDir = new URL(assets[0]!, `${gateway.url}/docs`).toString().replace(/[^/]+$/, '');
    expect((await call('GET', `${assetDir}index.html`, { headers: uniqueClient() })).status).toBe(404);
    expect((await call('GET', `${assetDir}swagger-ui-bundle.js.map`, { headers: uniqueClient() })).status).toBe(404);

    const slash = await fetch(`${gateway.url}/docs/`, { redirect: 'manual', headers: uniqueClient() });
    expect(slash.status).toBe(301);
    expect(new URL(slash.headers.get('location')!, `${gateway.url}/docs/`).pathname).toBe('/docs');
  });
});
