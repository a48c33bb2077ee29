import type { Request, RequestHandler } from 'express';
import { findAdminApiKeyWithOwner, type Pool } from '@switchboard/db';
import { ApiError } from '@switchboard/http';
import { setKeyPrincipal } from '../admin-auth/index.ts';
import { sessionTokenFrom } from './cookie.ts';
import type { DashboardSessions } from './sessions.ts';

/** A page the browser navigates to (the board's HTML), as opposed to its API calls and assets. */
function isPageRequest(req: Request): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD') && !req.path.startsWith('/api/') && !req.path.startsWith('/static/')
  );
}

/**
 * Resolves the caller of a dashboard request from its session cookie and sets the admin
 * principal, so the ACL checks and audit entries of the admin routes work unchanged after it.
 * The key and its owner are read from the database on every request, as for `Authorization:
 * Admin`: a deleted or expired key ends its sessions at once on every replica (and the session
 * is dropped), and ACL changes apply to the next request. Without a session a page request is
 * sent to the login page (`loginPath`, the browser's path); anything else is 401.
 */
export function dashboardAuthentication(options: {
  pool: Pool;
  sessions: DashboardSessions;
  loginPath: string;
}): RequestHandler {
  const { pool, sessions, loginPath } = options;
  return async (req, res, next) => {
    const token = sessionTokenFrom(req);
    const session = token === null ? null : await sessions.find(token);
    const found = session === null ? null : await findAdminApiKeyWithOwner(pool, session.keyId);
    const usable =
      found !== null &&
      found.key.adminUserId === session?.adminUserId &&
      (found.key.expiresAt === null || found.key.expiresAt.getTime() > Date.now());
    if (!usable) {
      if (token !== null && session !== null) await sessions.delete(token);
      if (isPageRequest(req)) return res.redirect(302, loginPath);
      return next(
        new ApiError('UNAUTHORIZED', {
          message: 'Sign in to the dashboard first: its session is missing or has ended.',
        }),
      );
    }
    setKeyPrincipal(res, found);
    next();
  };
}
