import type { Express } from 'express';
import { secretKeysOf } from '@switchboard/config';
import { QUEUES } from '@switchboard/contracts';
import { secretKeyring } from '@switchboard/db';
import { createAdaptedApp, errorMiddleware, notFound, requestId, routeTemplate } from '@switchboard/http';
import { createMetricsRegistry, httpRequestMetrics, queueJobsGauge } from '@switchboard/metrics';
import { createProducer } from '@switchboard/queue';
import { createAdminKeys } from './admin-auth/key-cache.ts';
import { createChangeFeed, exportFeedState } from './change-feed.ts';
import { CONSOLE_PATH, consoleRouter } from './console/index.ts';
import { DASHBOARD_PATH, dashboardRouter } from './dashboard/index.ts';
import type { GatewayDeps } from './deps.ts';
import { createIpBans, ipBanEnforcement } from './ip-bans/index.ts';
import { openApiRouter } from './openapi/index.ts';
import {
  adminFeatures,
  adminKeyAuthentication,
  adminRouter,
  buildAdminHandlers,
  type AdminArea,
} from './routes/admin/index.ts';
import { channelsRouter } from './routes/channels/index.ts';
import { discoveryRouter } from './routes/discovery/index.ts';
import { healthRouter } from './routes/health.ts';
import { executeMethodGuards, executeRouter } from './routes/webhooks/execute/index.ts';
import { webhooksRouter } from './routes/webhooks/index.ts';
import { isDependencyUnavailable } from './unavailable.ts';

/**
 * What the process hands createApp: its resources and its snowflake worker-id lease, and
 * optionally the parts of GatewayDeps it owns itself (main.ts owns the producer, to close it on
 * shutdown, and the draining flag).
 */
export type AppOptions = Pick<GatewayDeps, 'config' | 'logger' | 'pool' | 'redis' | 'storage' | 'snowflakeLease'> &
  Partial<Pick<GatewayDeps, 'producer' | 'isDraining' | 'metrics'>> & {
    /** The admin areas to mount; default ADMIN_AREAS. Tests mount areas of their own. */
    adminAreas?: readonly AdminArea[];
  };

/** The gateway's HTTP application: middleware, every route, then the 404 and error handlers. */
export function createApp(options: AppOptions): Express {
  const { config, logger, pool, redis } = options;
  const metrics = options.metrics ?? createMetricsRegistry('gateway');
  // IP bans apply to every route but health, before anything else runs. The subscriber
  // connection they keep lives as long as `redis`: closing that client closes it.
  const ipBans = createIpBans({
    pool,
    redis,
    prefix: config.REDIS_PREFIX,
    logger,
    fullReloadMs: config.IP_BANS_FULL_RELOAD_MS,
    overlayLimit: config.IP_BANS_OVERLAY_LIMIT,
    metrics,
  });
  // One per process, for every cache of credentials; its connection lives as long as the pool.
  const changeFeed =
    config.CREDENTIAL_CACHE_LEASE_MS > 0
      ? createChangeFeed({
          // LISTEN needs one session throughout: PostgreSQL itself, never a transaction pooler.
          connectionString: config.DATABASE_DIRECT_URL ?? config.DATABASE_URL,
          logger,
          leaseMs: config.CREDENTIAL_CACHE_LEASE_MS,
          stopWhen: () => pool.ending,
        })
      : null;
  if (changeFeed) exportFeedState(metrics, changeFeed);
  const deps: GatewayDeps = {
    config,
    logger,
    pool,
    redis,
    storage: options.storage,
    ids: options.snowflakeLease.ids,
    snowflakeLease: options.snowflakeLease,
    producer: options.producer ?? createProducer({ connection: redis, redisPrefix: config.REDIS_PREFIX, logger }),
    ipBans,
    adminKeys: createAdminKeys({ pool, feed: changeFeed, metrics }),
    secrets: secretKeyring(secretKeysOf(config)),
    changeFeed,
    isDraining: options.isDraining ?? (() => false),
    metrics,
  };
  // Every queue's backlog, also from here: when no worker of a kind runs, its own queue_jobs
  // are gone with it, and that is when its backlog matters. One count per queue per scrape.
  queueJobsGauge(metrics, Object.values(QUEUES), (queue) => deps.producer.jobCounts(queue));
  // Built once: the admin router mounts these, and discovery reports the features they serve.
  const adminHandlers = buildAdminHandlers(deps, options.adminAreas);

  const keyAuthentication = adminKeyAuthentication(deps);
  const admin = adminRouter(deps, adminHandlers, keyAuthentication);
  // Express with the adaptations of packages/http/src/express-adaptations (no X-Powered-By, no
  // generated ETags: responses set their own validators). `trust proxy` stays off: the client
  // address comes from clientIp(req, TRUSTED_PROXY_HOPS).
  const app = createAdaptedApp({
    // Metrics first, so every answer is timed, refusals included; then its id; then the IP bans.
    everyRequest: [
      httpRequestMetrics(deps.metrics, routeTemplate),
      requestId(),
      ipBanEnforcement({
        ipBans,
        trustedProxyHops: config.TRUSTED_PROXY_HOPS,
        loadWaitMs: config.IP_BANS_LOAD_WAIT_MS,
      }),
    ],
    // The admin calls of fixed paths (ban checks, audit-log searches): no router before the
    // admin router takes their paths.
    fixedRoutesFirst: [admin],
  });
  // The busiest first: webhook deliveries, then discovery and health (express tries them in
  // this order). Where two take one path the order decides the answer: the admin router serves
  // the one route under the dashboard's path a key calls (session), and the management routes
  // take the token path's GET, PATCH and DELETE before executeMethodGuards answers 405.
  app.use(executeRouter(deps));
  app.use(discoveryRouter(deps, adminFeatures(adminHandlers)));
  app.use(healthRouter(deps));
  // Public, like discovery: the OpenAPI document and its reference page, built once here.
  app.use(openApiRouter(config));
  app.use(admin);
  app.use(DASHBOARD_PATH, dashboardRouter(deps));
  app.use(CONSOLE_PATH, consoleRouter(deps, keyAuthentication));
  app.use(webhooksRouter(deps));
  app.use(executeMethodGuards());
  app.use(channelsRouter(deps));

  app.use(notFound());
  app.use(errorMiddleware(logger, isDependencyUnavailable));
  return app;
}
