import express, { type Express } from 'express';
import type { Redis } from 'ioredis';
import type { Pool } from '@switchboard/db';
import { errorMiddleware, notFound, requestId } from '@switchboard/http';
import type { Logger } from '@switchboard/logger';
import { createProducer, type Producer } from '@switchboard/queue';
import { createSnowflakeGenerator, type SnowflakeGenerator } from '@switchboard/snowflake';
import type { Storage } from '@switchboard/storage';
import type { GatewayConfig } from './config.ts';
import { createIpBans, ipBanEnforcement } from './ip-bans/index.ts';
import { routeLimiter } from './route-limiter.ts';
import { adminRouter } from './routes/admin/index.ts';
import { channelsRouter } from './routes/channels/index.ts';
import { discoveryRouter } from './routes/discovery/index.ts';
import { healthRouter } from './routes/health.ts';
import { executeRouter } from './routes/webhooks/execute/index.ts';
import { webhooksRouter } from './routes/webhooks/index.ts';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  pool: Pool;
  /** A request-path client (`createRedis(url, { role: 'client' })`): fails fast, never queues. */
  redis: Redis;
  storage: Storage;
  /** Id generator; default one for SNOWFLAKE_WORKER_ID. */
  ids?: SnowflakeGenerator;
  /** Enqueues jobs; default one on `redis`. Its `?wait=true` listener connects on first use. */
  producer?: Producer;
  /** True once graceful shutdown began; /readyz then answers 503. */
  isDraining?: () => boolean;
}

/** The gateway's HTTP application: middleware, every route, then the 404 and error handlers. */
export function createApp(deps: GatewayDeps): Express {
  const { config, logger, pool, redis, storage } = deps;
  const ids = deps.ids ?? createSnowflakeGenerator(config.SNOWFLAKE_WORKER_ID);
  const producer = deps.producer ?? createProducer({ connection: redis, redisPrefix: config.REDIS_PREFIX, logger });
  const app = express();
  app.disable('x-powered-by');
  // Responses set their own validators (discovery); API responses are dynamic and not hashed.
  app.set('etag', false);
  // `trust proxy` stays off: the client address comes from clientIp(req, TRUSTED_PROXY_HOPS).

  app.use(requestId());
  // IP bans apply to every route but health, before anything else runs. The subscriber
  // connection they keep lives as long as `redis`: closing that client closes it.
  const ipBans = createIpBans({
    pool,
    redis,
    prefix: config.REDIS_PREFIX,
    logger,
    fullReloadMs: config.IP_BANS_FULL_RELOAD_MS,
    overlayLimit: config.IP_BANS_OVERLAY_LIMIT,
  });
  app.use(ipBanEnforcement({ ipBans, trustedProxyHops: config.TRUSTED_PROXY_HOPS, loadWaitMs: config.IP_BANS_LOAD_WAIT_MS }));
  app.use(
    discoveryRouter({
      config,
      limiter: routeLimiter({ config, redis, logger })('instance:info'),
    }),
  );

  // After discovery, the hottest public route, so its requests pass one router fewer.
  app.use(
    healthRouter({ pool, redis, storage, checkTimeoutMs: config.READY_CHECK_TIMEOUT_MS, isDraining: deps.isDraining }),
  );

  app.use(adminRouter({ config, logger, pool, redis, ids, ipBans }));

  app.use(webhooksRouter({ config, logger, pool, redis, storage, ids }));
  app.use(executeRouter({ config, logger, pool, redis, storage, ids, producer }));
  app.use(channelsRouter({ config, logger, pool, redis }));

  app.use(notFound());
  app.use(errorMiddleware(logger));
  return app;
}
