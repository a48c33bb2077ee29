import type { RequestHandler } from 'express';
import { isFixedPath } from './path-gate.ts';
import { routeTakes, type RouterLike, type StackRoute } from './router-stack.ts';
import { runHandlers } from './run-handlers.ts';

interface FixedRoute {
  /** The router's own Route of this path, set as `req.route` (routeTemplate reads its path). */
  route: StackRoute;
  handlers: readonly RequestHandler[];
}

/** The key of a fixed route: its method (upper case, as `req.method`) and path. */
function fixedRouteKey(method: string, path: string): string {
  return `${method} ${path}`;
}

/** Whether a layer before a fixed route would take its request first, so the route must wait its turn. */
function takenBefore(router: RouterLike, index: number, method: string, path: string): boolean {
  return router.stack.slice(0, index).some((layer) => {
    if (!layer.match(path)) return false;
    if (layer.route) return routeTakes(layer.route, method);
    return layer.handle.length !== 4;
  });
}

/**
 * The routes of `router` that one method and one path (no parameters) reach, each with the
 * handlers the router would run for that method, in order: what no layer before them would take.
 */
function fixedRoutesOf(router: RouterLike): Map<string, FixedRoute> {
  const routes = new Map<string, FixedRoute>();
  router.stack.forEach((layer, index) => {
    const route = layer.route;
    if (!route || typeof route.path !== 'string' || !isFixedPath(route.path)) return;
    const path = route.path;
    for (const method of Object.keys(route.methods)) {
      const key = fixedRouteKey(method.toUpperCase(), path);
      if (method === '_all' || routes.has(key) || takenBefore(router, index, method, path)) continue;
      const handlers = route.stack.filter((handler) => handler.method === undefined || handler.method === method);
      routes.set(key, { route, handlers: handlers.map((handler) => handler.handle) });
    }
  });
  return routes;
}

/** The longest beginning all of `paths` share. */
function sharedBeginning(paths: readonly string[]): string {
  let shared = paths[0] ?? '';
  for (const path of paths) while (!path.startsWith(shared)) shared = shared.slice(0, -1);
  return shared;
}

/** Runs the fixed routes of `routes` whose request this is; passes the others on. */
function dispatchTo(routes: ReadonlyMap<string, FixedRoute>): RequestHandler {
  if (routes.size === 0) return (_req, _res, next) => next();
  const prefix = sharedBeginning([...routes.values()].map(({ route }) => route.path as string));
  return (req, res, next) => {
    if (!req.url.startsWith(prefix)) return next();
    const found = routes.get(fixedRouteKey(req.method, req.path));
    if (!found) return next();
    req.params = {};
    req.route = found.route;
    runHandlers(found.handlers, req, res, next);
  };
}

/**
 * Answers the requests for `router`'s fixed-path routes directly: a request whose method and path
 * are exactly a route's (`POST /v1/admin/bans/ip/check`) runs that route's handlers at once;
 * anything else (another case, a trailing slash, HEAD, a path with parameters) goes on, to the
 * router mounted later, which serves it as before. Express would walk every router mounted
 * before it and, inside it, every layer before the route, testing each one's path. A request
 * outside the routes' shared beginning costs one string comparison. The routes are read at the
 * first request, when the router has them all.
 */
export function fixedRouteDispatch(router: RouterLike): RequestHandler {
  let dispatch: RequestHandler | undefined;
  return (req, res, next) => {
    dispatch ??= dispatchTo(fixedRoutesOf(router));
    return dispatch(req, res, next);
  };
}
