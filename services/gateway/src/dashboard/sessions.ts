import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { hashCredential } from '@switchboard/auth';

/** What a session remembers: which key signed in. Never the key itself. */
export interface DashboardSession {
  keyId: string;
  adminUserId: string;
}

export interface DashboardSessions {
  /** Stores a new session for `ttlSeconds` and returns its token (the cookie's value). */
  create(session: DashboardSession, ttlSeconds: number): Promise<string>;
  /** The session of a token, or null once it expired or was deleted. */
  find(token: string): Promise<DashboardSession | null>;
  delete(token: string): Promise<void>;
}

// 256 bits from the CSPRNG: a token cannot be guessed, so no failure budget is needed for it.
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Dashboard sessions in Redis with a TTL, so that every gateway replica sees the same ones and
 * a sign-out or expiry holds everywhere at once (never in process memory). Keyed by the
 * SHA-256 of the token: reading Redis does not hand out usable cookies.
 */
export function dashboardSessions(redis: Redis, prefix: string): DashboardSessions {
  const keyOf = (token: string) => `${prefix}:dashboard-session:${hashCredential(token).toString('hex')}`;
  return {
    async create(session, ttlSeconds) {
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      await redis.set(
        keyOf(token),
        JSON.stringify({ keyId: session.keyId, adminUserId: session.adminUserId }),
        'EX',
        ttlSeconds,
      );
      return token;
    },
    async find(token) {
      if (!TOKEN_SHAPE.test(token)) return null;
      const stored = await redis.get(keyOf(token));
      return stored === null ? null : (JSON.parse(stored) as DashboardSession);
    },
    async delete(token) {
      if (TOKEN_SHAPE.test(token)) await redis.del(keyOf(token));
    },
  };
}
