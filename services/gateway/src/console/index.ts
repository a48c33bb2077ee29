// The operator console: server-rendered pages under CONSOLE_PATH (docs/decisions.md#console).
//
// - Sign-in exchanges an admin key for the same kind of session the queue dashboard uses
//   (admin-session/: HttpOnly, SameSite=Strict, Redis, the key re-read on every request, an
//   Origin check on every POST); the session also carries the key, sealed under its token.
// - Every page and form is an ordinary admin API call made with that key (admin-api.ts), so the
//   admin routes' ACLs, rate limits, validation and audit apply exactly as for any client.
// - Forms work without script (POST, then a redirect); console.js only adds copy buttons,
//   expanders, live archive and operation progress, and shows confirmation pages in a <dialog>.
//   A strict CSP forbids inline script and style.
import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { ApiError, isApiError, requestIdOf } from '@switchboard/http';
import { adminPrincipal } from '../admin-auth/index.ts';
import {
  adminSessions,
  sameOriginChanges,
  sessionAuthentication,
  sessionCookie,
  sessionTokenFrom,
} from '../admin-session/index.ts';
import type { GatewayDeps } from '../deps.ts';
import { routeLimiter } from '../route-limiter.ts';
import type { AdminKeyAuthentication } from '../routes/admin/index.ts';
import { consoleAdminApi, setConsoleSession, type AdminApi } from './admin-api.ts';
import { serveConsoleAsset } from './assets.ts';
import { consoleHeaders, privatePages } from './headers.ts';
import { html } from './html.ts';
import { page, screensFor } from './layout.ts';
import { formBody } from './form.ts';
import { archiveScreens } from './archives.ts';
import { auditScreens } from './audit.ts';
import { banScreens } from './bans.ts';
import { bulkAddScreens } from './bulk-adds.ts';
import { failedJobScreens } from './failed-jobs.ts';
import { keyScreens } from './keys.ts';
import { purgeScreens } from './purges.ts';
import { noticeOf } from './notices.ts';
import { consoleCookie, publicConsolePath } from './paths.ts';
import { openWithToken } from './token-seal.ts';
import type { ConsoleSession } from './session.ts';
import { keyFromForm, openSession, signInPage } from './sign-in.ts';

export { CONSOLE_PATH } from './paths.ts';

/** What the console's screens are built from. */
export interface ConsoleContext {
  base: string;
  api: AdminApi;
  deps: GatewayDeps;
}

/**
 * Everything under CONSOLE_PATH: hashed assets, sign-in and sign-out, then the screens behind
 * the session (Origin check on POSTs → session → the screen, whose admin API calls do the rest).
 */
export function consoleRouter(deps: GatewayDeps, keyAuthentication: AdminKeyAuthentication): Router {
  const { config, pool, redis } = deps;
  const base = publicConsolePath(config);
  const cookie = consoleCookie(config);
  const sessions = adminSessions<ConsoleSession>(redis, config.REDIS_PREFIX, 'console');
  const context: ConsoleContext = { base, api: consoleAdminApi(config), deps };
  const sameOrigin = sameOriginChanges(config, 'console');

  const router = Router();
  router.use(consoleHeaders);
  router.get('/assets/:name', serveConsoleAsset);
  router.use(privatePages);
  router.get('/sign-in', (req, res) => {
    res.type('html').send(signInPage(base, { notice: noticeOf(req.query) }));
  });
  router.post(
    '/sign-in',
    sameOrigin,
    formBody,
    keyFromForm,
    keyAuthentication.failures.guard,
    keyAuthentication.resolve,
    routeLimiter(deps)('admin:lookup'),
    openSession(deps, sessions, base),
  );
  router.post('/sign-out', sameOrigin, async (req, res) => {
    const token = sessionTokenFrom(req, cookie);
    if (token !== null) await sessions.delete(token);
    res.setHeader('Set-Cookie', sessionCookie(config, cookie, '', 0));
    res.redirect(303, `${base}/sign-in?done=signed-out`);
  });
  router.use(
    sameOrigin,
    sessionAuthentication({
      pool,
      sessions,
      cookie,
      refuse: (_req, res) => res.redirect(303, `${base}/sign-in`),
      found: (session, token, res) => {
        // A record not sealed under this token (tampered with) is no session.
        const adminKey = openWithToken(session.sealedKey, token);
        if (adminKey !== null) setConsoleSession(res, { token, adminKey });
        return adminKey !== null;
      },
    }),
    formBody,
  );
  router.get('/', home(base));
  router.use(keyScreens(context));
  router.use(banScreens(context));
  router.use(auditScreens(context));
  router.use(archiveScreens(context));
  router.use(purgeScreens(context));
  router.use(bulkAddScreens(context));
  router.use(failedJobScreens(context));
  router.use((_req, _res, next) => next(new ApiError('NOT_FOUND')));
  router.use(consoleErrors(base, deps.logger));
  return router;
}

function home(base: string): RequestHandler {
  return (_req, res) => {
    const screens = screensFor(adminPrincipal(res));
    const list =
      screens.length === 0
        ? html`<p>This key holds none of the ACLs the console's screens need.</p>`
        : html`<ul>${screens.map((screen) => html`<li><a href="${base}${screen.path}">${screen.name}</a></li>`)}</ul>`;
    res.type('html').send(page({ base, title: 'Home', principal: adminPrincipal(res) }, list));
  };
}

/**
 * Failures as pages: an admin API error keeps its status and message; a form the parser
 * refused is its 4xx; anything else is a 500 whose cause goes to the log only.
 */
function consoleErrors(base: string, logger: GatewayDeps['logger']): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const status = isApiError(error)
      ? error.status
      : typeof error?.status === 'number' && error.status >= 400 && error.status < 500
        ? error.status
        : 500;
    const message = isApiError(error)
      ? error.message
      : status === 500
        ? 'Something went wrong.'
        : 'The form could not be read.';
    if (status === 500)
      logger.error(
        { requestId: requestIdOf(req), reason: error instanceof Error ? error.message : String(error) },
        'console page failed',
      );
    res.status(status).type('html');
    if (req.path === '/sign-in') return res.send(signInPage(base, { error: message }));
    res.send(
      page(
        { base, title: 'Something went wrong', principal: null },
        html`<p class="error" role="alert">Error ${status}: ${message}</p><p><a href="${base}/">Back to the console</a></p>`,
      ),
    );
  };
}
