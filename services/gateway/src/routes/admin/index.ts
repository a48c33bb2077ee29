import { Router, type RequestHandler } from 'express';
import { ADMIN_ROUTES, LIMITS, type AdminRoute } from '@switchboard/contracts';
import { jsonBody, methodNotAllowed, type FailureBudget } from '@switchboard/http';
import { keyUseRecorder, requireAdminAcl, resolveAdminPrincipal } from '../../admin-auth/index.ts';
import type { GatewayDeps } from '../../deps.ts';
import { ipBanDeferredCheck } from '../../ip-bans/index.ts';
import { authFailures, routeLimiter } from '../../route-limiter.ts';
import { apiKeyHandlers } from './api-keys/index.ts';
import { archiveHandlers } from './archives/index.ts';
import { assetHandlers } from './assets/index.ts';
import { auditLogHandlers } from './audit-logs/index.ts';
import { banHandlers } from './bans/index.ts';
import { bulkHandlers } from './bulk/index.ts';
import { dashboardHandlers } from './dashboard/index.ts';
import { jobHandlers } from './jobs/index.ts';
import { webhookHandlers } from './webhooks/index.ts';
import { mergeAdminHandlers, servedAdminRoutes, type AdminArea, type AdminHandlerMap } from './handlers.ts';

/** Every admin area; together they serve every ADMIN_ROUTES entry (adminRouter refuses less). */
export const ADMIN_AREAS: readonly AdminArea[] = [
  apiKeyHandlers,
  archiveHandlers,
  assetHandlers,
  auditLogHandlers,
  banHandlers,
  bulkHandlers,
  dashboardHandlers,
  jobHandlers,
  webhookHandlers,
];

/** The handlers of every area, built once: the router mounts them and discovery reports them. */
export function buildAdminHandlers(deps: GatewayDeps, areas: readonly AdminArea[] = ADMIN_AREAS): AdminHandlerMap {
  return mergeAdminHandlers(areas.map((area) => area(deps)));
}

/**
 * Every route of ADMIN_ROUTES, each through the same chain (docs/decisions.md#admin-check-order): the client
 * IP's failure budget (429 once its bad keys used it up, before any lookup) → principal
 * resolution → a deferred IP ban (ban-removal routes only: 403 IP_BANNED unless the key holds
 * the route's ACL) → rate limit (the route's bucket, per admin or per client IP) → 401 → 403
 * MISSING_PERMISSIONS → 403 MISSING_ACL → JSON body (1 MiB) → the area's handler, which
 * validates (400 last). A table route without a handler stops startup: the table is the
 * interface, and every route of it is served.
 */
export function adminRouter(
  deps: GatewayDeps,
  handlers: AdminHandlerMap,
  { failures, resolve }: AdminKeyAuthentication = adminKeyAuthentication(deps),
): Router {
  const served = servedAdminRoutes(handlers);
  const body = jsonBody({ limitBytes: LIMITS.body.adminBytes });
  const limit = routeLimiter(deps);
  const limiter = (bucket: AdminRoute['bucket']): RequestHandler[] => (bucket === null ? [] : [limit(bucket)]);

  const router = Router();
  for (const { route, handler } of served) {
    const chain = [
      failures.guard,
      resolve,
      ipBanDeferredCheck(route.anyOf),
      ...limiter(route.bucket),
      requireAdminAcl(route.anyOf),
      body,
      handler,
    ];
    router.route(route.path)[route.method === 'GET' ? 'get' : route.method === 'POST' ? 'post' : 'delete'](...chain);
  }
  for (const [path, methods] of methodsByPath()) router.all(path, methodNotAllowed(methods));
  return router;
}

/**
 * The first two steps of every admin route: the client IP's failure budget (`failures.guard`)
 * and the principal from `Authorization: Admin <key>`. The console's sign-in takes the key the
 * same way, so a bad key there spends the same budget. Built once per app and shared (its
 * key-use recorder remembers which keys it recorded).
 */
export interface AdminKeyAuthentication {
  failures: FailureBudget;
  resolve: RequestHandler;
}

export function adminKeyAuthentication(deps: GatewayDeps): AdminKeyAuthentication {
  const { config, logger, pool, redis } = deps;
  const failures = authFailures(deps);
  const resolve = resolveAdminPrincipal({
    pool,
    keys: deps.adminKeys,
    recordUse: keyUseRecorder({ pool, redis, prefix: config.REDIS_PREFIX, logger }),
    failures,
  });
  return { failures, resolve };
}

function methodsByPath(): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const route of ADMIN_ROUTES) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route.method]);
  return byPath;
}

export { adminFeatures, type AdminFeatures } from './features.ts';
export {
  mergeAdminHandlers,
  routeKey,
  servedAdminRoutes,
  type AdminArea,
  type AdminHandlerMap,
  type AdminHandlers,
} from './handlers.ts';
