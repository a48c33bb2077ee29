import { ADMIN_ROUTES } from '@switchboard/contracts';
import { routeKey, type AdminHandlerMap } from './handlers.ts';

/**
 * The admin features the discovery document lists (docs/decisions.md#published-limits-and-features), each with the path
 * prefix of its ADMIN_ROUTES entries. Taking the routes from the table means a route added to
 * a feature later must be served too before the feature is reported.
 */
const FEATURE_PATHS = {
  archives: '/v1/admin/archives/',
  asset_purge: '/v1/admin/assets/',
  bulk_operations: '/v1/admin/bulk/',
} as const;

export type AdminFeatures = Record<keyof typeof FEATURE_PATHS, boolean>;

/**
 * A feature is on only when every one of its table routes has a handler: a client must not be
 * told a feature works when it does not. (adminRouter refuses to start with a route unserved,
 * so a running gateway reports what its areas serve.)
 */
export function adminFeatures(handlers: AdminHandlerMap): AdminFeatures {
  const served = (prefix: string): boolean => {
    const routes = ADMIN_ROUTES.filter((route) => route.path.startsWith(prefix));
    return routes.length > 0 && routes.every((route) => handlers.has(routeKey(route)));
  };
  return Object.fromEntries(
    Object.entries(FEATURE_PATHS).map(([feature, prefix]) => [feature, served(prefix)]),
  ) as AdminFeatures;
}
