import { beforeAll, describe, expect, it } from 'vitest';
import { ACL, ADMIN_ROUTES, type AdminRoute } from '@switchboard/contracts';
import { deleteAdminApiKey } from '@switchboard/db';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { ADMIN_AREAS } from '../src/routes/admin/index.ts';
import { mergeAdminHandlers, servedAdminRoutes, type GatewayDeps } from '../src/index.ts';
import { adminCall, createAdmin, HANDLER_REACHED, insertKey, markerArea, type AdminFixture } from './admin-helpers.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
// Many requests from one identity: rate limits are tested in admin-rate-limits.test.ts.
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
// The same chain with a marker handler on every route, to see a request reach its handler.
const marked = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' }, { adminAreas: [markerArea] });

/** Every ACL a route of the table names: enough for any route but `admin:authenticate`. */
const ROUTE_ACLS = [...new Set(ADMIN_ROUTES.flatMap((route) => route.anyOf))];

const keys = {} as {
  full: AdminFixture;
  revoked: AdminFixture;
  expired: string;
  noAuthenticate: AdminFixture;
  authenticateOnly: AdminFixture;
};

/** Concrete URL for a table path: parameters get plausible values. */
function concretePath(route: AdminRoute): string {
  return route.path
    .replace(':keyId', '1')
    .replace(':subjectType', 'user')
    .replace(':subjectId', '1')
    .replace(':archiveId', '1');
}

/** As Fluxer's Go test: GET sends no body, everything else sends `{}`. */
function call(route: AdminRoute, key?: string, url = gateway.url) {
  return adminCall(url, {
    method: route.method,
    path: concretePath(route),
    key,
    body: route.method === 'GET' ? undefined : {},
  });
}

beforeAll(async () => {
  keys.full = await createAdmin(gateway.pool, ['*']);
  keys.revoked = await createAdmin(gateway.pool, ['*']);
  await deleteAdminApiKey(gateway.pool, { id: keys.revoked.keyId, adminUserId: keys.revoked.adminId });
  keys.expired = (
    await insertKey(gateway.pool, keys.full.adminId, ['*'], { expiresAt: new Date(Date.now() - 60_000) })
  ).key;
  keys.noAuthenticate = await createAdmin(gateway.pool, ROUTE_ACLS);
  keys.authenticateOnly = await createAdmin(gateway.pool, [ACL.authenticate]);
});

describe.each(ADMIN_ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
  it('answers 401 without a key', async () => {
    const answer = await call(route);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('answers 401 with a revoked key and with an expired key', async () => {
    expect((await call(route, keys.revoked.key)).status).toBe(401);
    expect((await call(route, keys.expired)).status).toBe(401);
  });

  it('answers 403 MISSING_PERMISSIONS when the owner lacks admin:authenticate', async () => {
    const answer = await call(route, keys.noAuthenticate.key);
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'MISSING_PERMISSIONS' });
  });

  it('answers 403 MISSING_ACL (not 400) with only admin:authenticate, body {} included', async () => {
    const answer = await call(route, keys.authenticateOnly.key);
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'MISSING_ACL', acl: route.anyOf[0] });
  });

  it('lets an authorised key through to the handler', async () => {
    const answer = await call(route, keys.full.key, marked.url);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(HANDLER_REACHED);
  });
});

describe('admin router', () => {
  it('has a handler for every table route, and refuses to start with one missing', () => {
    // What createApp gives the areas, as far as building their handlers needs.
    const deps = {
      config: gateway.config,
      pool: gateway.pool,
      redis: gateway.redis,
      storage: gateway.storage,
      producer: gateway.producer,
    } as GatewayDeps;
    expect(servedAdminRoutes(mergeAdminHandlers(ADMIN_AREAS.map((area) => area(deps))))).toHaveLength(
      ADMIN_ROUTES.length,
    );
    const [first, ...rest] = Object.entries(markerArea(deps));
    expect(() => servedAdminRoutes(mergeAdminHandlers([Object.fromEntries(rest)]))).toThrow(
      `admin route "${first![0]}" has no handler`,
    );
  });
});
