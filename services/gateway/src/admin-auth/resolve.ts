import type { RequestHandler } from 'express';
import { authenticateAdminApiKey } from '@switchboard/auth';
import { setRateLimitIdentity, type FailureBudget } from '@switchboard/http';
import type { Pool } from '@switchboard/db';
import type { AdminKeys } from './key-cache.ts';
import type { KeyUseRecorder } from './key-use.ts';
import { principalOfKey, setAdminPrincipal } from './principal.ts';

/**
 * `Admin <key>` exactly: case-sensitive scheme, one space, a token without white space.
 * `admin …`, `Bearer …`, `Bot …` and bare tokens are not admin credentials.
 */
const ADMIN_SCHEME = /^Admin (\S+)$/;

export function adminKeyFromHeader(header: string | undefined): string | null {
  if (header === undefined) return null;
  return ADMIN_SCHEME.exec(header)?.[1] ?? null;
}

/**
 * Resolves the caller of an admin route from `Authorization: Admin <key>`. Never answers
 * itself: it sets the principal and the rate-limit identity `admin:<ownerId>` (shared by all
 * of an admin's keys), or nothing, and the rate limiter then the ACL check decide. The key
 * and its owner come from `keys` (never stale: key-cache.ts); expiry and the hash are checked
 * on every request. A key that matches nothing spends one unit of the client IP's failure
 * budget, whose guard runs before this (docs/decisions.md#admin-check-order, #auth-failure-budget:
 * limit, then authenticate).
 */
export function resolveAdminPrincipal(options: {
  pool: Pool;
  keys: AdminKeys;
  recordUse: KeyUseRecorder;
  failures: FailureBudget;
}): RequestHandler {
  const { pool, keys, recordUse, failures } = options;
  return async (req, res, next) => {
    const raw = adminKeyFromHeader(req.headers.authorization);
    if (raw === null) return next();
    const found = await authenticateAdminApiKey(pool, raw, { recordUse: false, lookUp: keys.lookUp });
    if (found === null) {
      await failures.recordFailure(req);
      return next();
    }
    setAdminPrincipal(res, principalOfKey(found));
    setRateLimitIdentity(res, `admin:${found.owner.id}`);
    recordUse(found.key.id);
    next();
  };
}
