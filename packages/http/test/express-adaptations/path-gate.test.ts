import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedApp } from '@switchboard/testkit/network';
import { startAdaptedApp } from '../start-app.ts';

let app: ServedApp;

/** The paths each router was entered with, by name: what its gate let in. */
const entered: Record<string, string[]> = { routes: [], mounted: [], pathless: [], late: [] };

/** `router`, noting each request it is entered with: still a router to the gate (it has `stack`). */
function noting(name: string, router: Router): RequestHandler {
  const handler: RequestHandler = (req, res, next) => {
    entered[name]?.push(req.path);
    router(req, res, next);
  };
  return Object.assign(handler, { stack: router.stack });
}

beforeAll(async () => {
  app = await startAdaptedApp({}, (express) => {
    const routes = Router();
    routes.post('/v1/admin/bans/:kind/check', (req, res) => void res.send(`check ${req.params['kind']}`));
    routes.get('/v1/.well-known/service', (_req, res) => void res.send('discovery'));
    // Error handlers without a path only see the router's own errors: they let in nothing more.
    routes.use(((_error, _req, res, _next) => void res.status(500).send('routes failed')) as ErrorRequestHandler);
    express.use(noting('routes', routes));

    const mounted = Router();
    mounted.use('/docs/assets', (_req, res) => void res.send('asset'));
    express.use(noting('mounted', mounted));

    // Middleware without a path sees every request in stock express: this router is not gated.
    const pathless = Router();
    pathless.use((_req, res, next) => {
      res.setHeader('X-Pathless', 'seen');
      next();
    });
    express.use(noting('pathless', pathless));

    const late = Router();
    express.use(noting('late', late));
    // Added after the router was mounted, before the first request: let in all the same.
    late.get('/late/route', (_req, res) => void res.send('late'));

    express.use((_req, res) => void res.send('passed by'));
  });
});

afterAll(() => app.close());

async function answer(method: string, path: string): Promise<{ text: string; pathless: string | null }> {
  const response = await fetch(`${app.url}${path}`, { method });
  return { text: await response.text(), pathless: response.headers.get('x-pathless') };
}

/** The routers that `path` entered. */
async function enteredBy(method: string, path: string): Promise<string[]> {
  for (const paths of Object.values(entered)) paths.length = 0;
  await answer(method, path);
  return Object.keys(entered).filter((name) => entered[name]?.length);
}

describe('routers mounted with app.use on an adapted app', () => {
  it('are entered by the paths their routes take, in any case and with a trailing slash, as express matches them', async () => {
    expect((await answer('POST', '/v1/admin/bans/ip/check')).text).toBe('check ip');
    expect((await answer('POST', '/V1/Admin/bans/email/check')).text).toBe('check email');
    expect((await answer('POST', '/v1/admin/bans/ip/check/')).text).toBe('check ip');
    expect((await answer('GET', '/v1/.well-known/service')).text).toBe('discovery');
  });

  it('are entered by any path under a route’s literal beginning, up to its first parameter', async () => {
    expect(await enteredBy('GET', '/v1/admin/bans/ip/list')).toEqual(['routes', 'pathless']);
    expect(await enteredBy('GET', '/v1/.well-known/service/extra')).toEqual(['routes', 'pathless']);
  });

  it('are passed by on every other path', async () => {
    for (const path of ['/', '/v1/admin/bansip/check', '/v1/admin/api-keys', '/v1/x/well-known/service']) {
      expect(await enteredBy('GET', path), path).toEqual(['pathless']);
      expect((await answer('GET', path)).text, path).toBe('passed by');
    }
    // The dot is the character itself, not any character.
    expect(await enteredBy('GET', '/v1/Xwell-known/service')).toEqual(['pathless']);
  });

  it('are entered under the paths their middleware is mounted at', async () => {
    expect((await answer('GET', '/docs/assets/app.js')).text).toBe('asset');
    expect(await enteredBy('GET', '/docs/assets/app.js')).toEqual(['mounted']);
  });

  it('are entered by every request when middleware in them has no path, as in stock express', async () => {
    expect(await answer('GET', '/anywhere')).toEqual({ text: 'passed by', pathless: 'seen' });
  });

  it('take the routes added after mounting, before the first request', async () => {
    expect((await answer('GET', '/late/route')).text).toBe('late');
  });
});
