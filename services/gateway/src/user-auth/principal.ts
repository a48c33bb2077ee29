import type { RequestHandler, Response } from 'express';
import { hashCredential, parseUserToken } from '@switchboard/auth';
import { findUserTokenByHash, type Pool } from '@switchboard/db';
import { ApiError, clientIp, responseLocal, setRateLimitIdentity, UNKNOWN_CLIENT_IP } from '@switchboard/http';
import { userTokenFromHeader } from './header.ts';
import type { TokenUseRecorder } from './token-use.ts';

/** The caller of a user route: a user or a bot, by its token. */
export interface UserPrincipal {
  userId: string;
  bot: boolean;
}

const principalSlot = responseLocal<UserPrincipal>(
  'userPrincipal',
  'userPrincipal() called outside an authenticated user route',
);

/** The principal, or undefined before/without authentication. */
export const findUserPrincipal = principalSlot.find;

/** The caller of a handler behind requireUser(). */
export function userPrincipal(res: Response): UserPrincipal {
  return principalSlot.get(res);
}

/**
 * Resolves the caller from a user or bot token. Never answers itself: it leaves the principal
 * and the rate-limit identity `user:<id>`, or nothing (the request is then
 * limited by client IP), and requireUser() answers 401 after the rate limiter. The token's
 * SHA-256 is looked up on every request, so a revoked token fails on the next one.
 */
export function resolveUser(options: {
  pool: Pool;
  recordUse: TokenUseRecorder;
  trustedProxyHops: number;
}): RequestHandler {
  const { pool, recordUse, trustedProxyHops } = options;
  return async (req, res, next) => {
    const raw = userTokenFromHeader(req.headers.authorization);
    const claimed = raw === null ? null : parseUserToken(raw);
    if (raw === null || claimed === null) return next();
    const tokenHash = hashCredential(raw);
    const stored = await findUserTokenByHash(pool, tokenHash);
    // The hash matched, so the token is genuine; the id check guards a corrupted row.
    if (stored === null || stored.userId !== claimed.userId) return next();
    principalSlot.set(res, { userId: stored.userId, bot: stored.kind === 'bot' });
    setRateLimitIdentity(res, `user:${stored.userId}`);
    const ip = clientIp(req, trustedProxyHops);
    if (ip !== UNKNOWN_CLIENT_IP) recordUse(tokenHash, ip);
    next();
  };
}

/** 401 `UNAUTHORIZED` unless resolveUser() found a valid token. */
export function requireUser(): RequestHandler {
  return (_req, res, next) => next(findUserPrincipal(res) ? undefined : new ApiError('UNAUTHORIZED'));
}
