/**
 * Every change the gateway makes to how express works inside, and nothing else. Each was made
 * to spend less CPU per request (the figures: packages/bench/README.md#express-adaptations; why
 * they live here: docs/decisions.md#express-adaptations), and each answers exactly as stock
 * express does. They rely on express's and its router's internals, so they are written for the
 * versions in WRITTEN_FOR; test/express-adaptations/express-version.test.ts fails on any other
 * and says what to re-check. test/express-adaptations/adapted-app.test.ts guards them together:
 * an adapted app and a stock one serve the same routes and must answer alike.
 *
 * 1. Lean `res.json` (json-response.ts). Replaces `app.response.json`: status, Content-Type and
 *    Content-Length go out in one `writeHead` list, without express's MIME lookup, charset
 *    re-format, settings reads and freshness check; whatever express treats specially (a type
 *    already set, 204/205/304, conditional GETs, no JSON text) still goes to express's own.
 *    Why: it ran on every API answer. Guard: json-response.test.ts (byte for byte as express).
 * 2. `X-Request-Id` in `writeHead`'s list (request-id-head.ts). Wraps `app.response.writeHead`
 *    to add `req.requestId` to the head as it is written: a header set beforehand with
 *    setHeader sends Node's head down its general path. Relies on every answer, express's own
 *    404 and error pages included, writing its head through `res.writeHead`. Guard:
 *    test/request-id.test.ts and adapted-app.test.ts (the id on every answer, errors and 404s).
 * 3. Requests and responses born with the app's prototypes (app-prototypes.ts). `app.request`
 *    and `app.response` become the prototypes of subclasses of Node's classes, which
 *    createAppServer's server constructs with, so express's `Object.setPrototypeOf` in
 *    app.handle changes nothing (V8 pays a map transition for each change on a live object).
 *    Relies on app.handle taking the prototypes from `app.request`/`app.response`. Guard:
 *    app-prototypes.test.ts (born with them; params, query, locals, json as in express).
 * 4. The middleware every request passes as one layer (run-handlers.ts): `everyRequest` runs in
 *    our own loop, which does what a router does between handlers (next, next(error), a throw, a
 *    rejected promise), without the router's per-layer path match and params step. Guard:
 *    run-handlers.test.ts.
 * 5. Routers entered only by their own paths (path-gate.ts). `app.use(router)` wraps the router
 *    in a test of the literal beginnings of its routes' and middleware's paths, read from
 *    `router.stack` (`route.path`, `rawPath`, `slash`), case-insensitive as express matches:
 *    other requests pass it by, where express would try each of its layers. Guard:
 *    path-gate.test.ts.
 * 6. Fixed-path routes answered before the routers (fixed-routes.ts), for the routers in
 *    `fixedRoutesFirst`: a request whose method and path are exactly such a route's (no
 *    parameters) runs the handlers the router would, read from `route.stack`, with `req.route`
 *    and `req.params` set as the router sets them. Only for routers whose fixed paths no router
 *    mounted before them takes; a route that no earlier layer of its own router would take. A
 *    chain that moves on past its last handler goes on to the app's next layer, not to the
 *    router's next route. Guard: fixed-routes.test.ts (answers as the router).
 * 7. Mount order (services/gateway/src/app.ts): the busiest routers first. Not a change to
 *    express, which tries an app's layers in the order mounted, as documented; it decides an
 *    answer only where two routers take one path. Guard: the gateway's tests of those paths
 *    (webhook-execute-order.test.ts: 405s after management, webhooks-management.test.ts: the
 *    token routes, dashboard.test.ts: the session route before the dashboard).
 */
import express, { type Express, type RequestHandler } from 'express';
import { bornWithAppPrototypes } from './app-prototypes.ts';
import { fixedRouteDispatch } from './fixed-routes.ts';
import { answerJsonLean } from './json-response.ts';
import { gateMountedRouters } from './path-gate.ts';
import { echoRequestIdInHead } from './request-id-head.ts';
import { isRouter } from './router-stack.ts';
import { handlersInOrder } from './run-handlers.ts';

/** The express and router versions the adaptations were written for and checked against. */
export const WRITTEN_FOR = { express: '5.3.0', router: '2.3.0' } as const;

export interface AdaptedAppOptions {
  /** Middleware every request passes before any route, in this order (metrics, request id, ...). */
  everyRequest?: readonly RequestHandler[];
  /**
   * Routers (mount each with app.use later too) whose fixed-path routes answer right after
   * `everyRequest`: only routers no router mounted before them could take those paths from.
   */
  fixedRoutesFirst?: readonly RequestHandler[];
}

/**
 * An express app with every adaptation installed: no `X-Powered-By`, no generated ETags (a
 * route that wants validators sets its own), the lean `res.json`, the request id echoed, the
 * prototypes ready for createAppServer, `everyRequest` as its first layer and the fixed routes
 * next. Mount routes on it with `app.use` as on any express app.
 */
export function createAdaptedApp(options: AdaptedAppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  answerJsonLean(app);
  echoRequestIdInHead(app);
  // After the two above: it copies what they put on app.response.
  bornWithAppPrototypes(app);
  gateMountedRouters(app);
  const { everyRequest = [], fixedRoutesFirst = [] } = options;
  if (everyRequest.length > 0) app.use(handlersInOrder(everyRequest));
  for (const router of fixedRoutesFirst) {
    if (!isRouter(router)) throw new Error('createAdaptedApp: fixedRoutesFirst takes express routers');
    app.use(fixedRouteDispatch(router));
  }
  return app;
}

export { createAppServer } from './app-prototypes.ts';
