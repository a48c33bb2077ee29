import type { Express, RequestHandler } from 'express';
import { isRouter, type RouterLike } from './router-stack.ts';

/** Where a route path stops being literal: a parameter, wildcard or optional part begins. */
const ROUTE_SYNTAX = /[:*{(]/;

/** A route path's literal beginning: up to its first parameter, wildcard or optional part. */
function literalPrefix(routePath: string): string {
  const end = routePath.search(ROUTE_SYNTAX);
  return end === -1 ? routePath : routePath.slice(0, end);
}

/** A route path without parameters, wildcards or optional parts: one URL path matches it. */
export function isFixedPath(routePath: string): boolean {
  return !ROUTE_SYNTAX.test(routePath);
}

/**
 * The paths under which `router` can answer: its routes' paths and the paths its middleware is
 * mounted at, nested routers included. Undefined when a layer could answer any path (middleware
 * mounted without a path) or has a path that is not a string: such a router is not gated.
 * Error handlers without a path only see the errors of the router's own layers.
 */
export function answeringPaths(router: RouterLike): string[] | undefined {
  const paths: string[] = [];
  for (const layer of router.stack) {
    const path = layer.route ? layer.route.path : layer.rawPath;
    if (!layer.slash) {
      if (typeof path !== 'string') return undefined;
      paths.push(path);
    } else if (isRouter(layer.handle)) {
      const inner = answeringPaths(layer.handle);
      if (inner === undefined) return undefined;
      paths.push(...inner);
    } else if (layer.handle.length !== 4) {
      return undefined;
    }
  }
  return paths;
}

/**
 * Runs `router` only for requests whose path could match one of `paths` (their literal
 * beginnings are compared); other requests go on at once, where express's router would try each
 * of its layers first. Case-insensitive, as express's routes are, and a prefix, as a trailing
 * slash or a mounted middleware's subpaths need: it never turns away a path a layer inside would
 * take.
 */
export function onlyForPaths(paths: readonly string[], router: RequestHandler): RequestHandler {
  const prefixes = [...new Set(paths.map(literalPrefix))].map((prefix) =>
    prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  const couldMatch = new RegExp(`^(?:${prefixes.join('|')})`, 'i');
  const gate: RequestHandler = (req, res, next) => (couldMatch.test(req.path) ? router(req, res, next) : next());
  // Route listings (the OpenAPI document's test, express-list-endpoints) walk `handle.stack`.
  return Object.assign(gate, { stack: (router as { stack?: unknown }).stack });
}

/**
 * `handler` gated by the paths it can answer when it is a router that can be; else `handler`
 * itself. The paths are read at the first request, when the router has all its routes.
 */
function gatedByPaths(handler: unknown): unknown {
  if (!isRouter(handler)) return handler;
  const router = handler;
  let gate: RequestHandler | undefined;
  const gateOnFirstRequest: RequestHandler = (req, res, next) => {
    if (gate === undefined) {
      const paths = answeringPaths(router);
      gate = paths === undefined || paths.length === 0 ? router : onlyForPaths(paths, router);
    }
    return gate(req, res, next);
  };
  // Route listings (the OpenAPI document's test, express-list-endpoints) walk `handle.stack`.
  return Object.assign(gateOnFirstRequest, { stack: router.stack });
}

/**
 * Gates every router `app.use` is given without a path (`app.use(router)`): one mounted under a
 * path (`app.use('/x', router)`) is matched by express itself, and other handlers are untouched.
 */
export function gateMountedRouters(app: Express): void {
  const use = app.use as (this: Express, ...args: unknown[]) => Express;
  app.use = function (this: Express, ...args: unknown[]) {
    const pathless = args.every((arg) => typeof arg === 'function');
    return use.apply(this, pathless ? args.map(gatedByPaths) : args);
  } as Express['use'];
}
