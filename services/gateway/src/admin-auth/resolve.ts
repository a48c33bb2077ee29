import type { RequestHandler } from 'express';
import { authenticateAdminApiKey } from '@switchboard/auth';
import { createBatcher } from '@switchboard/batching';
import { findAdminApiKeysWithOwners, isRowError, type Pool } from '@switchboard/db';
import { setRateLimitIdentity, type FailureBudget } from '@switchboard/http';
import type { KeyUseRecorder } from './key-use.ts';
import { setAdminPrincipal } from './principal.ts';

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
 * of an admin's keys), or nothing, and the rate limiter then the ACL check decide. Reads the
 * key and its owner from the database on every request (no cache), so revocation and ACL
 * changes apply on the next request on every replica; the keys of concurrent requests are read
 * together in one statement. A key that matches nothing spends one unit of the client IP's
 * failure budget, whose guard runs before this (decisions §12: limit, then authenticate).
 */
export function resolveAdminPrincipal(options: { pool: Pool; recordUse: KeyUseRecorder; failures: FailureBudget }): RequestHandler {
  const { pool, recordUse, failures } = options;
  // One statement out at a time: the keys arriving meanwhile make the next one bigger. Toggled
  // run by run inside one gateway under the ban-check load (eight pairs), two out cost 48.8
  // against 47.0 µs of gateway CPU per check, and twice the statements for the database.
  const lookUp = createBatcher((keyIds: string[]) => findAdminApiKeysWithOwners(pool, keyIds), {
    maxBatch: 100,
    maxInFlight: 1,
    isItemError: isRowError,
  });
  return async (req, res, next) => {
    const raw = adminKeyFromHeader(req.headers.authorization);
    if (raw === null) return next();
    const found = await authenticateAdminApiKey(pool, raw, { recordUse: false, lookUp });
    if (found === null) {
      await failures.recordFailure(req);
      return next();
    }
    setAdminPrincipal(res, {
      adminUserId: found.owner.id,
      keyId: found.key.id,
      ownerAcls: found.owner.acls,
      keyAcls: found.key.acls,
    });
    setRateLimitIdentity(res, `admin:${found.owner.id}`);
    recordUse(found.key.id);
    next();
  };
}
