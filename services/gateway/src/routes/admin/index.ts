import { Router, type RequestHandler } from 'express';
import { ADMIN_ROUTES, LIMITS, type AdminRoute } from '@switchboard/contracts';
import { ApiError, jsonBody, methodNotAllowed } from '@switchboard/http';
import { keyUseRecorder, requireAdminAcl, resolveAdminPrincipal } from '../../admin-auth/index.ts';
import { routeLimiter } from '../../route-limiter.ts';
import { apiKeyHandlers } from './api-keys/index.ts';
import { auditLogHandlers } from './audit-logs/index.ts';
import { banHandlers } from './bans/index.ts';
import type { AdminDeps, AdminHandlers } from './types.ts';

/** Every admin area's handler map; a table route none of them serves answers 501. */
const AREAS: ReadonlyArray<(deps: AdminDeps) => AdminHandlers> = [apiKeyHandlers, auditLogHandlers, banHandlers];

export function routeKey(route: Pick<AdminRoute, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/** One map from every area; a key that is not a table route, or is served twice, stops startup. */
export function mergeAdminHandlers(maps: readonly AdminHandlers[]): Map<string, RequestHandler> {
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

const notImplemented: RequestHandler = (_req, _res, next) =>
  next(new ApiError('NOT_IMPLEMENTED', { message: 'This admin feature is not available yet.' }));

/**
 * Every route of ADMIN_ROUTES, each through the same chain (decisions §2): principal
 * resolution → rate limit (the route's bucket, per admin or per client IP) → 401 → 403
 * MISSING_PERMISSIONS → 403 MISSING_ACL → JSON body (1 MiB) → the area's handler, which
 * validates (400 last).
 */
export function adminRouter(deps: AdminDeps, areas = AREAS): Router {
  const { config, logger, pool, redis } = deps;
  const handlers = mergeAdminHandlers(areas.map((area) => area(deps)));
  const resolve = resolveAdminPrincipal({
    pool,
    recordUse: keyUseRecorder({ pool, redis, prefix: config.REDIS_PREFIX, logger }),
  });
  const body = jsonBody({ limitBytes: LIMITS.body.adminBytes });
  const limit = routeLimiter({ config, redis, logger });
  const limiter = (bucket: AdminRoute['bucket']): RequestHandler[] => (bucket === null ? [] : [limit(bucket)]);

  const router = Router();
  for (const route of ADMIN_ROUTES) {
    const handler = handlers.get(routeKey(route)) ?? notImplemented;
    const chain = [resolve, ...limiter(route.bucket), requireAdminAcl(route.anyOf), body, handler];
    router[route.method === 'GET' ? 'get' : route.method === 'POST' ? 'post' : 'delete'](route.path, ...chain);
  }
  for (const [path, methods] of methodsByPath()) router.all(path, methodNotAllowed(methods));
  return router;
}

function methodsByPath(): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const route of ADMIN_ROUTES) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route.method]);
  return byPath;
}

export type { AdminDeps, AdminHandlers, AdminPrincipal } from './types.ts';
export { adminPrincipal, auditReason } from './types.ts';
