import type { Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import type { Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import type { SnowflakeGenerator } from '@switchboard/snowflake';
import type { GatewayConfig } from '../../config.ts';
import type { IpBans } from '../../ip-bans/index.ts';

/** What every admin area module gets to build its handlers. */
export interface AdminDeps {
  config: GatewayConfig;
  logger: Logger;
  pool: Pool;
  /** A request-path client (`createRedis(url, { role: 'client' })`). */
  redis: Redis;
  ids: SnowflakeGenerator;
  /** This replica's live IP bans (checks read them, adds and removes publish to them). */
  ipBans: IpBans;
}

/**
 * An area's handlers keyed `'<METHOD> <path>'` exactly as in ADMIN_ROUTES, e.g.
 * `'POST /v1/admin/bans/ip/add'`. A handler runs after authentication and the ACL check; it
 * validates its own input (so a 400 always comes after 401/403).
 */
export type AdminHandlers = Record<string, RequestHandler>;

/** The authenticated caller of an admin route: an API key and the admin owning it. */
export interface AdminPrincipal {
  /** The key's owner: who acted, for audit entries and rate limits. */
  adminUserId: string;
  keyId: string;
  /** The owner's ACLs as read on this request. */
  ownerAcls: readonly string[];
  keyAcls: readonly string[];
}

const PRINCIPAL = 'admin';

export function setAdminPrincipal(res: Response, principal: AdminPrincipal): void {
  res.locals[PRINCIPAL] = principal;
}

/** The principal, or undefined before/without authentication. */
export function findAdminPrincipal(res: Response): AdminPrincipal | undefined {
  return res.locals[PRINCIPAL] as AdminPrincipal | undefined;
}

/** The caller of an admin handler. Handlers only run once the router authenticated them. */
export function adminPrincipal(res: Response): AdminPrincipal {
  const principal = findAdminPrincipal(res);
  if (!principal) throw new Error('adminPrincipal() called outside an authenticated admin route');
  return principal;
}

export const AUDIT_REASON_HEADER = 'x-audit-log-reason';
const AUDIT_REASON_MAX_CHARS = 512;
// U+202E (right-to-left override) can disguise a reason in the panel; control characters too.
const STRIPPED = /[\u202e\p{Cc}]/gu;

/**
 * `X-Audit-Log-Reason` as Fluxer normalises it: strip U+202E and control characters, trim,
 * and keep 1..512 characters; empty or longer is null, never an error.
 */
export function auditReason(req: Request): string | null {
  const raw = req.headers[AUDIT_REASON_HEADER];
  if (typeof raw !== 'string') return null;
  const reason = decodeHeaderText(raw).replace(STRIPPED, '').trim();
  const length = Array.from(reason).length;
  return length >= 1 && length <= AUDIT_REASON_MAX_CHARS ? reason : null;
}

/**
 * Node hands header bytes over as latin1; a client sending UTF-8 text (an operator's reason in
 * any language) means those bytes as UTF-8. Bytes that are not valid UTF-8 stay latin1.
 */
function decodeHeaderText(raw: string): string {
  if (!/[\u0080-\u00ff]/.test(raw)) return raw;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(raw, 'latin1'));
  } catch {
    return raw;
  }
}
