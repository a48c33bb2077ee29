import type { RequestHandler, Response } from 'express';
import { ApiError } from '@switchboard/http';
import type { AclName } from '@switchboard/contracts';
import { adminPrincipal, grantedAcl, type AdminPrincipal } from '../admin-auth/index.ts';
import type { AdminAnswer } from './admin-api.ts';
import { apiErrorText } from './form.ts';
import { CONSOLE_ASSETS } from './assets.ts';
import { html, type Html } from './html.ts';
import { routeAcls } from './route-acls.ts';

/** A screen of the console: its path under the console, its name, and who may open it. */
interface Screen {
  path: string;
  name: string;
  anyOf: readonly AclName[];
}

/** The screens in navigation order, each shown by the ACLs of the admin route it opens with. */
export const SCREENS: readonly Screen[] = [
  { path: '/keys', name: 'API keys', anyOf: routeAcls('GET /v1/admin/api-keys') },
  { path: '/bans/email', name: 'Email bans', anyOf: routeAcls('POST /v1/admin/bans/email/list') },
  { path: '/bans/ip', name: 'IP bans', anyOf: routeAcls('POST /v1/admin/bans/ip/list') },
  { path: '/bans/phone', name: 'Phone bans', anyOf: routeAcls('POST /v1/admin/bans/phone/list') },
  { path: '/audit', name: 'Audit log', anyOf: routeAcls('POST /v1/admin/audit-logs') },
  { path: '/archives', name: 'Archives', anyOf: routeAcls('POST /v1/admin/archives/list') },
  { path: '/assets/purge', name: 'Asset purge', anyOf: routeAcls('POST /v1/admin/assets/purge') },
  { path: '/bulk/add-members', name: 'Bulk add members', anyOf: routeAcls('POST /v1/admin/bulk/add-guild-members') },
  { path: '/jobs/failed', name: 'Failed jobs', anyOf: routeAcls('GET /v1/admin/jobs/failed') },
  // A redirect to the queue dashboard (its own sign-in), for whoever may open a dashboard session.
  { path: '/queue-dashboard', name: 'Queue dashboard', anyOf: routeAcls('POST /v1/admin/dashboard/session') },
];

/**
 * Refuses (403, as the admin API would) a screen whose pages call no API before a form is sent,
 * unless the operator holds one of `anyOf` (an ADMIN_ROUTES entry's list, from routeAcls).
 */
export function requireAnyAcl(anyOf: readonly AclName[]): RequestHandler {
  return (_req, res, next) => {
    if (grantedAcl(adminPrincipal(res), anyOf) === null) throw new ApiError('MISSING_ACL');
    next();
  };
}

/** The screens a principal may open (the admin API still decides every call). */
export function screensFor(principal: AdminPrincipal): Screen[] {
  return SCREENS.filter((screen) => grantedAcl(principal, screen.anyOf) !== null);
}

export interface PageOptions {
  /** The console's public path, prefix of every link. */
  base: string;
  title: string;
  /** Null on the sign-in page: no navigation. */
  principal: AdminPrincipal | null;
  /** The screen path the page belongs to, marked aria-current in the navigation. */
  current?: string;
  /** A one-line outcome of the last action, said in text (role=status). */
  notice?: string | null;
  /** A failure, said in text (role=alert). */
  error?: string | null;
}

function navigation(options: PageOptions): Html {
  if (options.principal === null) return html``;
  const items = screensFor(options.principal).map(
    (screen) =>
      html`<li><a href="${options.base}${screen.path}"${options.current === screen.path ? html` aria-current="page"` : ''}>${screen.name}</a></li>`,
  );
  return html`<nav aria-label="Console"><ul><li><a href="${options.base}/">Home</a></li>${items}</ul></nav>
<form method="post" action="${options.base}/sign-out"><button type="submit">Sign out</button></form>`;
}

/** A whole page: stylesheet and script from the console's hashed assets, nothing inline. */
export function page(options: PageOptions, body: Html): string {
  const assets = `${options.base}/assets`;
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Switchboard console</title>
<link rel="stylesheet" href="${assets}/${CONSOLE_ASSETS.css.name}">
<script src="${assets}/${CONSOLE_ASSETS.js.name}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><strong>Switchboard console</strong>${navigation(options)}</header>
<main id="main">
<h1>${options.title}</h1>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${options.error ? html`<p class="error" role="alert">Error: ${options.error}</p>` : ''}
${body}
</main>
</body>
</html>
`.text;
}

/** A screen's page saying why the admin API refused (with the API's status), above `body`. */
export function sendRefusal(
  res: Response,
  options: Pick<PageOptions, 'base' | 'title' | 'current'>,
  answer: AdminAnswer,
  body: Html,
): void {
  const error = apiErrorText(answer.body, answer.status);
  res
    .status(answer.status)
    .type('html')
    .send(page({ ...options, principal: adminPrincipal(res), error }, body));
}
