import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router, type Express, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@switchboard/logger';
import { serveOnFreePort, type ServedApp } from '@switchboard/testkit/network';
import {
  ApiError,
  createAdaptedApp,
  createAppServer,
  errorMiddleware,
  methodNotAllowed,
  requestId,
  routeTemplate,
} from '../../src/index.ts';

/**
 * An app with every adaptation (through createAdaptedApp and createAppServer, as the gateway
 * runs) and a stock express app serve the same routers and middleware; every request below must
 * be answered alike by both, but for the request id the adapted one echoes.
 */

/** Fails the request before any route when asked to: an error from the every-request layer. */
const failEarly: RequestHandler = (req, _res, next) => next(req.get('x-fail-early') ? new Error('early') : undefined);

/** Routers as the gateway's route modules build them, one of each kind of layer the adaptations read. */
function routers(): { admin: Router; others: Router[] } {
  const admin = Router();
  admin.post('/v1/admin/bans/ip/check', (req, res) => {
    res.json({ route: routeTemplate(req), params: req.params, query: req.query, id: typeof req.requestId });
  });
  admin.get('/v1/admin/items/:id', (req, res) => void res.json({ id: req.params['id'], route: routeTemplate(req) }));
  admin.post('/v1/admin/throws', () => {
    throw new Error('thrown');
  });
  admin.post('/v1/admin/rejects', async () => {
    throw new Error('rejected');
  });
  admin.post('/v1/admin/missing', (_req, _res, next) => next(new ApiError('NOT_FOUND')));
  admin.post('/v1/admin/created', (_req, res) => void res.status(201).json([1, 'two', { three: null }]));
  admin.all('/v1/admin/bans/ip/check', methodNotAllowed(['POST']));

  const discovery = Router();
  discovery
    .route('/v1/.well-known/service')
    .all((_req, res, next) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      next();
    })
    .get((_req, res) => void res.json({ api: { version: 1 } }))
    .all(methodNotAllowed(['GET', 'HEAD']));

  const execute = Router();
  execute.post('/v1/webhooks/:id/:token', (req, res) => {
    res.setHeader('X-Webhook', `${req.params['id']}`);
    res.status(204).end();
  });

  const assets = Router();
  assets.use('/docs/assets', (req, res) => void res.type('text/css').send(`/* ${req.path} */`));

  return { admin, others: [execute, discovery, assets] };
}

/** The layers after `everyRequest`, the same on both apps; no notFound(), so express's own 404 answers. */
function mountRoutes(app: Express, { admin, others }: ReturnType<typeof routers>): void {
  for (const router of others) app.use(router);
  app.use(admin);
  app.use(errorMiddleware(createLogger('test', 'silent')));
}

let stock: ServedApp;
let adapted: { url: string; server: Server };

beforeAll(async () => {
  const stockApp = express();
  stockApp.disable('x-powered-by');
  stockApp.set('etag', false);
  stockApp.use(requestId(), failEarly);
  mountRoutes(stockApp, routers());
  stock = await serveOnFreePort(stockApp);

  const built = routers();
  const adaptedApp = createAdaptedApp({ everyRequest: [requestId(), failEarly], fixedRoutesFirst: [built.admin] });
  mountRoutes(adaptedApp, built);
  const server = createAppServer(adaptedApp);
  server.on('request', adaptedApp);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  adapted = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
});

afterAll(async () => {
  adapted.server.closeAllConnections();
  adapted.server.close();
  await Promise.all([stock.close(), once(adapted.server, 'close')]);
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers that differ between any two answers, or that only the adapted app sends. */
const UNCOMPARED = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);

async function answer(base: string, method: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { method, headers });
  const all = Object.fromEntries(response.headers);
  const compared: Answer = {
    status: response.status,
    headers: Object.fromEntries(Object.entries(all).filter(([name]) => !UNCOMPARED.has(name))),
    body: await response.text(),
  };
  return { compared, requestId: response.headers.get('x-request-id') };
}

const CASES: Array<[name: string, method: string, path: string, headers?: Record<string, string>]> = [
  ['a fixed route, with a query string (the dispatch)', 'POST', '/v1/admin/bans/ip/check?x=1'],
  ['a fixed route in another case (the router)', 'POST', '/V1/Admin/bans/ip/check'],
  ['a fixed route with a trailing slash (the router)', 'POST', '/v1/admin/bans/ip/check/'],
  ['another method on a fixed path: 405 from all()', 'GET', '/v1/admin/bans/ip/check'],
  ['HEAD on a fixed path', 'HEAD', '/v1/admin/bans/ip/check'],
  ['a route with a parameter', 'GET', '/v1/admin/items/42'],
  ['HEAD on a route with a parameter', 'HEAD', '/v1/admin/items/42'],
  ['a parameter that does not decode', 'GET', '/v1/admin/items/%E0%A4%A'],
  ['a thrown error', 'POST', '/v1/admin/throws'],
  ['a rejected promise', 'POST', '/v1/admin/rejects'],
  ['an ApiError 404', 'POST', '/v1/admin/missing'],
  ['a status set before json', 'POST', '/v1/admin/created'],
  ['all() then get() on one route', 'GET', '/v1/.well-known/service'],
  ['a conditional GET (express’s own res.json)', 'GET', '/v1/.well-known/service', { 'if-none-match': '*' }],
  ['a 405 after all()', 'DELETE', '/v1/.well-known/service'],
  ['a bare 204 with a header set', 'POST', '/v1/webhooks/1/token'],
  ['middleware mounted at a path', 'GET', '/docs/assets/v1/app.css'],
  ['a path under a router’s prefix that no route takes (express’s 404)', 'GET', '/v1/admin/bans/ip/list'],
  ['a path no router takes (express’s 404)', 'GET', '/nowhere'],
  ['an error in the every-request layer', 'GET', '/v1/admin/items/1', { 'x-fail-early': 'yes' }],
];

describe('an adapted app', () => {
  it.each(CASES)('answers as stock express: %s', async (_name, method, path, headers) => {
    const [expected, actual] = await Promise.all([
      answer(stock.url, method, path, headers),
      answer(adapted.url, method, path, headers),
    ]);
    expect(actual.compared).toEqual(expected.compared);
  });

  it.each(CASES)('sends X-Request-Id, the incoming one kept: %s', async (_name, method, path, headers) => {
    const made = await answer(adapted.url, method, path, headers);
    expect(made.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const kept = await answer(adapted.url, method, path, { ...headers, 'x-request-id': 'lb-7f3a' });
    expect(kept.requestId).toBe('lb-7f3a');
  });
});
