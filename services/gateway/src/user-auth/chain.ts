import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import { requireUser, resolveUser } from './principal.ts';
import { tokenUseRecorder } from './token-use.ts';

export interface UserAuth {
  /** Before the rate limiter: sets the principal and the identity `user:<id>`, never answers. */
  resolve: RequestHandler;
  /** After the rate limiter: 401 without a valid token. */
  require: RequestHandler;
}

/** The two halves of user-token authentication that a route chain puts around its rate limiter. */
export function userAuth(options: {
  pool: Pool;
  redis: Redis;
  prefix: string;
  trustedProxyHops: number;
  logger: Logger;
}): UserAuth {
  const { pool, redis, prefix, trustedProxyHops, logger } = options;
  const recordUse = tokenUseRecorder({ pool, redis, prefix, logger });
  return { resolve: resolveUser({ pool, recordUse, trustedProxyHops }), require: requireUser() };
}
