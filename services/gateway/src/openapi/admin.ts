import { ADMIN_ROUTES, type ErrorCode } from '@switchboard/contracts';
import type { GatewayConfig } from '../config.ts';
import { routeKey } from '../routes/admin/handlers.ts';
import { adminDocs } from './admin-docs.ts';
import { BODY_READ, EVERY_ROUTE } from './errors.ts';
import type { OperationSpec } from './operation.ts';

/**
 * The chain every admin route runs (adminRouter): failure budget and rate limit → 401 → 403
 * MISSING_PERMISSIONS → 403 MISSING_ACL → JSON body (1 MiB) → validation.
 */
const ADMIN_CHAIN: readonly ErrorCode[] = [
  ...EVERY_ROUTE,
  'RATE_LIMITED',
  'UNAUTHORIZED',
  'MISSING_PERMISSIONS',
  'MISSING_ACL',
  ...BODY_READ,
];

/**
 * Every ADMIN_ROUTES entry as an operation: method, path, ACLs and bucket from the table (the
 * one the router mounts), schemas from the area's own modules. A table route without a doc
 * entry, or an entry naming no route, stops start-up as an unserved route does.
 */
export function adminOperations(config: GatewayConfig): OperationSpec[] {
  const docs = adminDocs(config);
  const known = new Set(ADMIN_ROUTES.map(routeKey));
  for (const key of Object.keys(docs))
    if (!known.has(key)) throw new Error(`OpenAPI: "${key}" is not an ADMIN_ROUTES entry`);
  return ADMIN_ROUTES.map((route) => {
    const doc = docs[routeKey(route)];
    if (!doc) throw new Error(`OpenAPI: admin route "${routeKey(route)}" is not described`);
    return {
      ...doc,
      method: route.method.toLowerCase() as OperationSpec['method'],
      operationId: route.operationId,
      path: route.path,
      tag: 'admin',
      security: 'adminApiKey',
      errors: [...ADMIN_CHAIN, ...(doc.errors ?? [])],
      extensions: { 'x-required-acls': { anyOf: route.anyOf }, 'x-rate-limit-bucket': route.bucket },
    };
  });
}
