import type { RequestHandler, Response } from 'express';
import { findAdminApiKeyWithOwner, type Pool } from '@switchboard/db';
import { setKeyPrincipal } from '../admin-auth/index.ts';
import { sessionTokenFrom, type SessionCookie } from './cookie.ts';
import type { AdminSession, AdminSessions } from './sessions.ts';

/**
 * Resolves the caller of a browser tool's request from its session cookie and sets the admin
 * principal, so the ACL checks and audit entries of the admin routes work unchanged after it.
 * The key and its owner are read from the database on every request, as for `Authorization:
 * Admin`: a deleted or expired key ends its sessions at once on every replica (and the session
 * is dropped), and ACL changes apply to the next request. Without a usable session, `refuse`
 * answers (the tool's sign-in page, or 401).
 */
export function sessionAuthentication<S extends AdminSession>(options: {
  pool: Pool;
  sessions: AdminSessions<S>;
  cookie: SessionCookie;
  refuse: RequestHandler;
  /**
   * Called with the session and its token once the key proved usable, e.g. to keep something of
   * it on the response; false refuses the session as if it had ended.
   */
  found?: (session: S, token: string, res: Response) => boolean;
}): RequestHandler {
  const { pool, sessions, cookie, refuse, found: onFound } = options;
  return async (req, res, next) => {
    const token = sessionTokenFrom(req, cookie);
    const session = token === null ? null : await sessions.find(token);
    const found = session === null ? null : await findAdminApiKeyWithOwner(pool, session.keyId);
    const usable =
      found !== null &&
      token !== null &&
      session !== null &&
      found.key.adminUserId === session.adminUserId &&
      (found.key.expiresAt === null || found.key.expiresAt.getTime() > Date.now());
    if (!usable || (onFound !== undefined && !onFound(session, token, res))) {
      if (token !== null && session !== null) await sessions.delete(token);
      return refuse(req, res, next);
    }
    setKeyPrincipal(res, found);
    next();
  };
}
