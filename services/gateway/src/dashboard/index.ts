// The queue dashboard: bull-board over every queue of QUEUES, for admins holding `jobs:read`.
//
// Decisions (recorded in docs/decisions.md#dashboard-session):
// - A browser cannot send `Authorization: Admin <key>` on page loads, so the key is exchanged
//   for a session once: POST /v1/admin/dashboard/session is an ordinary ADMIN_ROUTES entry
//   (routes/admin/dashboard), so rate limits, 401/403, the walker test and auditing apply to it.
// - The session is a random 256-bit token in an HttpOnly, SameSite=Strict cookie scoped to the
//   dashboard path (Secure on https). Its record lives in Redis under the token's SHA-256 with a
//   TTL: the gateway is stateless and scaled out, so every replica must see it; never in memory.
// - The TTL is fixed (DASHBOARD_SESSION_TTL_SECONDS, 15 min), not sliding, and never past the
//   key's expiry: the board polls, which would keep a forgotten tab signed in for ever.
// - Every request re-reads the key and its owner (as Authorization does): a deleted or expired
//   key ends its sessions, an ACL taken away is 403 on the next request, on every replica.
// - Changes need `jobs:write`; other keys get a read-only board (bull-board's readOnlyMode is
//   per board, hence two boards). Every change is audited from a table of bull-board's write
//   routes; a change missing from it is refused, so an upgrade cannot add an unaudited one.
// - Adding jobs and editing their data are refused even to writers: a job is created with its
//   row and its payload parsed by the route that owns it (docs/decisions.md#jobs-and-their-rows), never by hand.
// - CSRF: SameSite=Strict plus an Origin check on every change; pages are never framed.
import { Router, type Request, type RequestHandler } from 'express';
import { ACL } from '@switchboard/contracts';
import { adminPrincipal, grantedAcl, requireAdminAcl } from '../admin-auth/index.ts';
import type { GatewayDeps } from '../deps.ts';
import { routeLimiter } from '../route-limiter.ts';
import { ApiError } from '@switchboard/http';
import {
  adminSessions,
  isSafeMethod,
  sameOriginChanges,
  sessionAuthentication,
  sessionCookie,
  sessionTokenFrom,
} from '../admin-session/index.ts';
import { auditDashboardChanges } from './audit.ts';
import { queueBoards } from './board.ts';
import { boundedBoardQuery, dashboardRateLimitIdentity } from './limits.ts';
import { LOGIN_SCRIPT, loginPage, logoutPage } from './pages.ts';
import { dashboardCookie, publicDashboardPath } from './paths.ts';

// What routes/admin/dashboard (the session route) and app.ts need.
export { DASHBOARD_PATH, dashboardCookie } from './paths.ts';

/** A page the browser navigates to (the board's HTML), as opposed to its API calls and assets. */
function isPageRequest(req: Request): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD') && !req.path.startsWith('/api/') && !req.path.startsWith('/static/')
  );
}

/** Cookie-authenticated pages: never cached by anything in between, never framed (clickjacking). */
const privatePages: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
  next();
};

/**
 * Everything under DASHBOARD_PATH: the sign-in page and its script, sign-out, then bull-board
 * through this chain: Origin check on changes (CSRF) → session → rate limit (`admin:dashboard`,
 * per admin) → 401/403 as on admin routes (`jobs:read`) → `jobsPerPage` ≤ 100 and `page` bounded
 * (400) → `jobs:write` for changes → audit of changes → the read-only or the writable
 * board, by the key's ACLs.
 */
export function dashboardRouter(deps: GatewayDeps): Router {
  const { config, pool, redis, producer } = deps;
  const base = publicDashboardPath(config);
  const sessions = adminSessions(redis, config.REDIS_PREFIX, 'dashboard');
  const cookie = dashboardCookie(config);
  const loginPath = `${base}/login`;
  // Without a session a page request is sent to the login page; anything else is 401.
  const refuse: RequestHandler = (req, res, next) => {
    if (isPageRequest(req)) return res.redirect(302, loginPath);
    next(
      new ApiError('UNAUTHORIZED', { message: 'Sign in to the dashboard first: its session is missing or has ended.' }),
    );
  };
  const boardFor = queueBoards(producer, base);
  const requireWrite = requireAdminAcl([ACL.jobsWrite]);

  const router = Router();
  router.use(privatePages);
  router.get('/login', (_req, res) => {
    res.type('html').send(loginPage({ session: `${base}/session`, board: `${base}/`, script: `${base}/login.js` }));
  });
  router.get('/login.js', (_req, res) => {
    res.type('text/javascript').send(LOGIN_SCRIPT);
  });
  router.get('/logout', (_req, res) => {
    res.type('html').send(logoutPage(`${base}/logout`));
  });
  router.post('/logout', sameOriginChanges(config, 'dashboard'), async (req, res) => {
    const token = sessionTokenFrom(req, cookie);
    if (token !== null) await sessions.delete(token);
    res.setHeader('Set-Cookie', sessionCookie(config, cookie, '', 0));
    res.redirect(303, loginPath);
  });
  router.use(
    sameOriginChanges(config, 'dashboard'),
    sessionAuthentication({ pool, sessions, cookie, refuse }),
    dashboardRateLimitIdentity,
    routeLimiter(deps)('admin:dashboard'),
    requireAdminAcl([ACL.jobsRead]),
    boundedBoardQuery,
    (req, res, next) => (isSafeMethod(req) ? next() : requireWrite(req, res, next)),
    auditDashboardChanges(deps),
    (req, res, next) => boardFor(grantedAcl(adminPrincipal(res), [ACL.jobsWrite]) !== null)(req, res, next),
  );
  return router;
}
