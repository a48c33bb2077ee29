import type { Response } from 'express';
import { responseLocal } from '@switchboard/http';

/** The authenticated caller of an admin route: an API key and the admin owning it. */
export interface AdminPrincipal {
  /** The key's owner: who acted, for audit entries and rate limits. */
  adminUserId: string;
  keyId: string;
  /** The owner's ACLs as read on this request. */
  ownerAcls: readonly string[];
  keyAcls: readonly string[];
  /** When the key used expires (null: never); a key it creates may not outlive it. */
  keyExpiresAt: Date | null;
}

const principalSlot = responseLocal<AdminPrincipal>(
  'adminPrincipal',
  'adminPrincipal() called outside an authenticated admin route',
);

export const setAdminPrincipal = principalSlot.set;

/** The principal of a key read with its owner (by `Authorization: Admin` or a browser session). */
export function principalOfKey(found: {
  key: { id: string; acls: readonly string[]; expiresAt: Date | null };
  owner: { id: string; acls: readonly string[] };
}): AdminPrincipal {
  return {
    adminUserId: found.owner.id,
    keyId: found.key.id,
    ownerAcls: found.owner.acls,
    keyAcls: found.key.acls,
    keyExpiresAt: found.key.expiresAt,
  };
}

/** The principal, or undefined before/without authentication. */
export const findAdminPrincipal = principalSlot.find;

/** The caller of an admin handler. Handlers only run once the router authenticated them. */
export function adminPrincipal(res: Response): AdminPrincipal {
  return principalSlot.get(res);
}
