import type { RequestHandler } from 'express';
import { ADMIN_ROUTES, type AdminRoute } from '@switchboard/contracts';
import type { GatewayDeps } from '../../deps.ts';

/**
 * An area's handlers keyed `'<METHOD> <path>'` exactly as in ADMIN_ROUTES, e.g.
 * `'POST /v1/admin/bans/ip/add'`. A handler runs after authentication and the ACL check; it
 * validates its own input (so a 400 always comes after 401/403).
 */
export type AdminHandlers = Record<string, RequestHandler>;

/** One admin area (keys, audit logs, bans, …): its handlers, built from the gateway's deps. */
export type AdminArea = (deps: GatewayDeps) => AdminHandlers;

/** Every table route's handler, by routeKey(); adminRouter refuses to start with one missing. */
export type AdminHandlerMap = ReadonlyMap<string, RequestHandler>;

export function routeKey(route: Pick<AdminRoute, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/** One map from every area; a key that is not a table route, or is served twice, stops startup. */
export function mergeAdminHandlers(maps: readonly AdminHandlers[]): AdminHandlerMap {
  const known = new Set(ADMIN_ROUTES.map(routeKey));
  const merged = new Map<string, RequestHandler>();
  for (const map of maps) {
    for (const [key, handler] of Object.entries(map)) {
      if (!known.has(key)) throw new Error(`admin handler "${key}" has no entry in ADMIN_ROUTES`);
      if (merged.has(key)) throw new Error(`admin handler "${key}" is defined twice`);
      merged.set(key, handler);
    }
  }
  return merged;
}

/** Every table route with its handler. A route without one stops startup: the table is the interface. */
export function servedAdminRoutes(handlers: AdminHandlerMap): Array<{ route: AdminRoute; handler: RequestHandler }> {
  return ADMIN_ROUTES.map((route) => {
    const handler = handlers.get(routeKey(route));
    if (!handler) throw new Error(`admin route "${routeKey(route)}" has no handler`);
    return { route, handler };
  });
}
