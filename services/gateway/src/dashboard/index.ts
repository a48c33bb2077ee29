// The queue dashboard (bull-board) behind admin sessions: an admin API key is exchanged for a
// short-lived HttpOnly cookie (POST /v1/admin/dashboard/session, an ADMIN_ROUTES entry served
// by routes/admin/dashboard), and every board request is checked against that session, the key
// behind it and its ACLs. Sessions live in Redis, so every replica honours them.
import { Router, type RequestHandler } from 'express';
import { ACL } from '@switchboard/contracts';
import { adminPrincipal, grantedAcl, requireAdminAcl } from '../admin-auth/index.ts';
import type { GatewayDeps } from '../deps.ts';
import { auditDashboardChanges } from './audit.ts';
import { dashboardAuthentication } from './authenticate.ts';
import { queueBoards } from './board.ts';
import { sessionCookie, sessionTokenFrom } from './cookie.ts';
import { LOGIN_SCRIPT, loginPage, logoutPage } from './pages.ts';
import { DASHBOARD_PATH, publicDashboardPath } from './paths.ts';
import { isSafeMethod, sameOriginChanges } from './same-origin.ts';
import { dashboardSessions } from './sessions.ts';

// What routes/admin/dashboard (the session route) and app.ts need.
export { DASHBOARD_PATH } from './paths.ts';
export { sessionCookie } from './cookie.ts';
export { dashboardSessions } from './sessions.ts';

/** Cookie-authenticated pages: never cached by anything in between, never framed (clickjacking). */
const privatePages: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
  next();
};

/**
 * Everything under DASHBOARD_PATH: the sign-in page and its script, sign-out, then bull-board
 * through this chain: Origin check on changes (CSRF) → session → 401/403 as on admin routes
 * (`jobs:read`) → `jobs:write` for changes → audit of changes → the read-only or the writable
 * board, by the key's ACLs.
 */
export function dashboardRouter(deps: GatewayDeps): Router {
  const { config, pool, redis, producer } = deps;
  const base = publicDashboardPath(config);
  const sessions = dashboardSessions(redis, config.REDIS_PREFIX);
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
  router.post('/logout', sameOriginChanges(config), async (req, res) => {
    const token = sessionTokenFrom(req);
    if (token !== null) await sessions.delete(token);
    res.setHeader('Set-Cookie', sessionCookie(config, '', 0));
    res.redirect(303, `${base}/login`);
  });
  router.use(
    sameOriginChanges(config),
    dashboardAuthentication({ pool, sessions, loginPath: `${base}/login` }),
    requireAdminAcl([ACL.jobsRead]),
    (req, res, next) => (isSafeMethod(req) ? next() : requireWrite(req, res, next)),
    auditDashboardChanges(deps),
    (req, res, next) => boardFor(grantedAcl(adminPrincipal(res), [ACL.jobsWrite]) !== null)(req, res, next),
  );
  return router;
}

