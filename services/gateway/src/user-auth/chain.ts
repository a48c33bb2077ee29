import type { RequestHandler } from 'express';
import type { Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import type { GatewayConfig } from '../config.ts';
import { requireUser, resolveUser } from './principal.ts';
import { tokenUseRecorder } from './token-use.ts';
import type { RedisClient } from '@switchboard/redis';

export interface UserAuth {
  /** Before the rate limiter: sets the principal and the identity `user:<id>`, never answers. */
  resolve: RequestHandler;
  /** After the rate limiter: 401 without a valid token. */
  require: RequestHandler;
}

/**
 * The two halves of user-token authentication that a route chain puts around its rate limiter;
 * a router passes its deps as they are.
 */
export function userAuth(deps: {
  config: Pick<GatewayConfig, 'REDIS_PREFIX' | 'TRUSTED_PROXY_HOPS'>;
  pool: Pool;
  redis: RedisClient;
  logger: Logger;
}): UserAuth {
  const { config, pool, redis, logger } = deps;
  const recordUse = tokenUseRecorder({ pool, redis, prefix: config.REDIS_PREFIX, logger });
  return {
    resolve: resolveUser({ pool, recordUse, trustedProxyHops: config.TRUSTED_PROXY_HOPS }),
    require: requireUser(),
  };
}
