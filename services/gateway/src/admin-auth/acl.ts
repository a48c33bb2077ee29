import type { RequestHandler } from 'express';
import { ACL, aclsGrant } from '@switchboard/contracts';
import { ApiError } from '@switchboard/http';
import { findAdminPrincipal, type AdminPrincipal } from './principal.ts';

/**
 * The first ACL of `anyOf` that both the owner's current set and the key's set grant, or
 * null. Both must grant the same ACL: a key never carries more than its owner holds now.
 */
export function grantedAcl(principal: AdminPrincipal, anyOf: readonly string[]): string | null {
  return anyOf.find((acl) => aclsGrant(principal.ownerAcls, acl) && aclsGrant(principal.keyAcls, acl)) ?? null;
}

export function missingAcl(acl: string): ApiError {
  return new ApiError('MISSING_ACL', { message: `Missing ACL: ${acl}.`, body: { acl } });
}

/**
 * 401 without a principal, 403 `MISSING_PERMISSIONS` when the owner lacks
 * `admin:authenticate`, 403 `MISSING_ACL` (naming the route's first ACL) unless owner and key
 * both grant one of `anyOf`. Runs after the rate limiter and before body parsing.
 */
export function requireAdminAcl(anyOf: readonly string[]): RequestHandler {
  if (anyOf.length === 0) throw new Error('an admin route must require at least one ACL');
  return (_req, res, next) => {
    const principal = findAdminPrincipal(res);
    if (!principal) return next(new ApiError('UNAUTHORIZED'));
    if (!aclsGrant(principal.ownerAcls, ACL.authenticate)) return next(new ApiError('MISSING_PERMISSIONS'));
    if (grantedAcl(principal, anyOf) === null) return next(missingAcl(anyOf[0]!));
    next();
  };
}
