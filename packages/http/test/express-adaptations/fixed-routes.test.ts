import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedApp } from '@switchboard/testkit/network';
import { isFixedPath } from '../../src/express-adaptations/path-gate.ts';
import { routeTemplate } from '../../src/index.ts';
import { startAdaptedApp } from '../start-app.ts';

let app: ServedApp;

/** Routes of the router under test: every handler chain, by method and path. */
const CHAINS: Array<[method: 'get' | 'post', path: string, handlers: RequestHandler[]]> = [
  [
    'post',
    '/v1/admin/bans/ip/check',
    [
      (_req, res, next) => {
        res.locals['seen'] = 'first';
        next();
      },
      async (req, res) => {
        await Promise.resolve();
        res.json({ seen: res.locals['seen'], route: routeTemplate(req), params: req.params });
      },
    ],
  ],
  [
    'post',
    '/v1/admin/throws',
    [
      () => {
        throw new Error('thrown');
      },
    ],
  ],
  [
    'post',
    '/v1/admin/rejects',
    [
      async () => {
        throw new Error('rejected');
      },
    ],
  ],
  ['post', '/v1/admin/passes-error', [(_req, _res, next) => next(new Error('passed'))]],
  ['post', '/v1/admin/ends-unanswered', [(_req, _res, next) => next()]],
  ['get', '/v1/admin/items/:id', [(req, res) => void res.send(`item ${req.params['id']}`)]],
  // A fixed path the route before it, with a parameter, takes first: the router runs that one.
  ['post', '/v1/admin/items/:id', [(req, res) => void res.send(`item ${req.params['id']} by parameter`)]],
  ['post', '/v1/admin/items/last', [(_req, res) => void res.send('item last by its own route')]],
];

/** A route with an all() handler before its GET one. */
function mountMixedRoute(router: Router): void {
  router
    .route('/v1/admin/mixed')
    .all((_req, res, next) => {
      res.locals['seen'] = 'all';
      next();
    })
    .get((_req, res) => void res.send(`mixed after ${res.locals['seen']}`));
}

beforeAll(async () => {
  const router = Router();
  for (const [method, path, handlers] of CHAINS) router.route(path)[method](...handlers);
  mountMixedRoute(router);
  app = await startAdaptedApp({ fixedRoutesFirst: [router] }, (express) => {
    // Whatever the dispatch passes on stops here, so a request it served shows.
    express.use((_req, res) => void res.send('passed on'));
    express.use(router);
    express.use(
      ((error: Error, _req, res, _next) => void res.status(500).send(`error: ${error.message}`)) as ErrorRequestHandler,
    );
  });
});

afterAll(() => app.close());

async function answer(method: string, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${app.url}${path}`, { method });
  return { status: response.status, text: await response.text() };
}

describe('fixedRoutesFirst', () => {
  it('runs a fixed route’s handlers in order, with the route as express would set it and no params', async () => {
    const { status, text } = await answer('POST', '/v1/admin/bans/ip/check');
    expect(status).toBe(200);
    expect(JSON.parse(text)).toEqual({ seen: 'first', route: '/v1/admin/bans/ip/check', params: {} });
  });

  it('ends a thrown error, a rejected promise and next(error) in the app’s error handler', async () => {
    expect(await answer('POST', '/v1/admin/throws')).toEqual({ status: 500, text: 'error: thrown' });
    expect(await answer('POST', '/v1/admin/rejects')).toEqual({ status: 500, text: 'error: rejected' });
    expect(await answer('POST', '/v1/admin/passes-error')).toEqual({ status: 500, text: 'error: passed' });
  });

  it('goes on past the last handler when no handler answered', async () => {
    expect(await answer('POST', '/v1/admin/ends-unanswered')).toEqual({ status: 200, text: 'passed on' });
  });

  it('passes on everything that is not exactly a fixed route: another method, spelling or path, a path with parameters', async () => {
    for (const [method, path] of [
      ['GET', '/v1/admin/bans/ip/check'],
      ['POST', '/v1/admin/bans/ip/check/'],
      ['POST', '/V1/Admin/bans/ip/check'],
      ['GET', '/v1/admin/items/7'],
      ['POST', '/v1/webhooks/1/token'],
    ] as const) {
      const { text } = await answer(method, path);
      expect(text, `${method} ${path}`).toBe('passed on');
    }
  });

  it('runs a route’s all() handlers in turn with its method’s, as the router does', async () => {
    expect(await answer('GET', '/v1/admin/mixed')).toEqual({ status: 200, text: 'mixed after all' });
  });

  it('leaves a fixed route that a layer before it in its router would take to the router', async () => {
    expect(await answer('POST', '/v1/admin/items/last')).toEqual({ status: 200, text: 'passed on' });
  });

  it('answers a fixed path with a query string', async () => {
    const { text } = await answer('POST', '/v1/admin/bans/ip/check?x=1');
    expect(JSON.parse(text)).toMatchObject({ route: '/v1/admin/bans/ip/check' });
  });
});

describe('isFixedPath', () => {
  it('is true only for paths without parameters, wildcards or optional parts', () => {
    expect(isFixedPath('/v1/admin/bans/ip/check')).toBe(true);
    expect(isFixedPath('/v1/admin/api-keys/:keyId')).toBe(false);
    expect(isFixedPath('/files/*rest')).toBe(false);
    expect(isFixedPath('/v1/admin{/extra}')).toBe(false);
  });
});
