import { randomBytes } from 'node:crypto';
import { hashCredential } from '@switchboard/auth';
import type { RedisClient } from '@switchboard/redis';

/** What every session remembers: which key signed in. Never the key itself in clear. */
export interface AdminSession {
  keyId: string;
  adminUserId: string;
}

export interface AdminSessions<S extends AdminSession = AdminSession> {
  /**
   * Stores a new session for `ttlSeconds` and returns its token (the cookie's value). A function
   * is given the token first, for a record that seals something with it.
   */
  create(session: S | ((token: string) => S), ttlSeconds: number): Promise<string>;
  /** The session of a token, or null once it expired or was deleted. */
  find(token: string): Promise<S | null>;
  delete(token: string): Promise<void>;
}

// 256 bits from the CSPRNG: a token cannot be guessed, so no failure budget is needed for it.
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Sessions of a browser tool (`kind`: the queue dashboard, the console) in Redis with a TTL, so
 * that every gateway replica sees the same ones and a sign-out or expiry holds everywhere at
 * once (never in process memory). Keyed by the SHA-256 of the token: reading Redis does not
 * hand out usable cookies.
 */
export function adminSessions<S extends AdminSession = AdminSession>(
  redis: RedisClient,
  prefix: string,
  kind: 'dashboard' | 'console',
): AdminSessions<S> {
  const keyOf = (token: string) => `${prefix}:${kind}-session:${hashCredential(token).toString('hex')}`;
  return {
    async create(session, ttlSeconds) {
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const record = typeof session === 'function' ? session(token) : session;
      await redis.set(keyOf(token), JSON.stringify(record), 'EX', ttlSeconds);
      return token;
    },
    async find(token) {
      if (!TOKEN_SHAPE.test(token)) return null;
      const stored = await redis.get(keyOf(token));
      return stored === null ? null : (JSON.parse(stored) as S);
    },
    async delete(token) {
      if (TOKEN_SHAPE.test(token)) await redis.del(keyOf(token));
    },
  };
}

/** A session lives `ttlSeconds`, or less when its key expires sooner (at least 1 s). */
export function sessionSeconds(ttlSeconds: number, keyExpiresAt: Date | null, now: number): number {
  if (keyExpiresAt === null) return ttlSeconds;
  return Math.max(1, Math.min(ttlSeconds, Math.floor((keyExpiresAt.getTime() - now) / 1000)));
}
