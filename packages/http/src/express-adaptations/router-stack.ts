import type { RequestHandler } from 'express';

/**
 * The parts of a router's stack the path gate and the fixed-route dispatch read: router 2.3.0's
 * (express 5.3.0's router), undocumented, typed here once. express-list-endpoints and the
 * gateway's OpenAPI test read the same fields.
 */

/** One handler of a Route: `method` is unset for `route.all(...)`. */
interface RouteLayer {
  method?: string;
  handle: RequestHandler;
}

/** What `router.route(path)` made: `methods` holds `_all` once `route.all(...)` was called. */
export interface StackRoute {
  path: unknown;
  methods: Record<string, boolean | undefined>;
  stack: RouteLayer[];
}

/** One entry of `router.stack`: a route, or middleware from `router.use([path], fn)`. */
export interface RouterLayer {
  route?: StackRoute;
  /** True for `router.use(fn)` without a path: every path matches. */
  slash: boolean;
  /** The path it was given (a string for the gateway's, an array or RegExp allowed). */
  rawPath?: unknown;
  handle: RequestHandler | ((...args: never[]) => unknown);
  match(path: string): unknown;
}

/** An express Router (or a handler carrying one's stack): a function with `stack`. */
export type RouterLike = RequestHandler & { stack: RouterLayer[] };

export function isRouter(handler: unknown): handler is RouterLike {
  return typeof handler === 'function' && Array.isArray((handler as { stack?: unknown }).stack);
}

/** Whether `route` runs for `method` (lower case), as router's Route#_handlesMethod says: HEAD falls to GET. */
export function routeTakes(route: StackRoute, method: string): boolean {
  if (route.methods['_all'] === true) return true;
  const name = method === 'head' && route.methods['head'] !== true ? 'get' : method;
  return route.methods[name] === true;
}
