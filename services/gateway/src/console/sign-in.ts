import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { ACL, aclsGrant } from '@switchboard/contracts';
import { ApiError } from '@switchboard/http';
import { findAdminPrincipal, recordAudit } from '../admin-auth/index.ts';
import { sessionCookie, sessionSeconds, sessionTokenFrom, type AdminSessions } from '../admin-session/index.ts';
import type { GatewayDeps } from '../deps.ts';
import { html } from './html.ts';
import { page } from './layout.ts';
import { consoleCookie } from './paths.ts';
import { sealWithToken } from './token-seal.ts';
import type { ConsoleSession } from './session.ts';
import { field } from './form.ts';

const signInForm = z.object({ key: field });

/** The sign-in page: one password field, posted as an ordinary form (no script needed). */
export function signInPage(base: string, options: { error?: string | null; notice?: string | null } = {}): string {
  return page(
    { base, title: 'Sign in', principal: null, error: options.error ?? null, notice: options.notice ?? null },
    html`<form method="post" action="${base}/sign-in">
<label for="key">Admin API key</label>
<input id="key" name="key" type="password" autocomplete="off" required>
<p class="hint" id="key-hint">The key is exchanged for a session of this browser; it is never shown again.</p>
<button type="submit">Sign in</button>
</form>`,
  );
}

/**
 * Moves the form's key into `Authorization: Admin <key>`, so the admin routes' own first steps
 * (the client IP's failure budget, then key resolution) run on it unchanged.
 */
export const keyFromForm: RequestHandler = (req, _res, next) => {
  const parsed = signInForm.safeParse(req.body ?? {});
  delete req.headers.authorization;
  const key = parsed.success ? parsed.data.key?.trim() : undefined;
  if (key) req.headers.authorization = `Admin ${key}`;
  next();
};

/**
 * After key resolution and the rate limit: a key that resolved to an owner holding
 * `admin:authenticate` opens a session (docs/decisions.md#console) that carries the key sealed
 * under the session token; anything else is 401/403 as on the admin routes. Audited like the
 * dashboard's sign-in.
 */
export function openSession(
  { config, pool, ids }: GatewayDeps,
  sessions: AdminSessions<ConsoleSession>,
  base: string,
): RequestHandler {
  const cookie = consoleCookie(config);
  return async (req: Request, res: Response) => {
    const principal = findAdminPrincipal(res);
    const key = req.headers.authorization?.slice('Admin '.length);
    if (!principal || key === undefined)
      throw new ApiError('UNAUTHORIZED', { message: 'That is not a usable admin API key.' });
    if (!aclsGrant(principal.ownerAcls, ACL.authenticate)) throw new ApiError('MISSING_PERMISSIONS');
    const seconds = sessionSeconds(config.CONSOLE_SESSION_TTL_SECONDS, principal.keyExpiresAt, Date.now());
    const previous = sessionTokenFrom(req, cookie);
    if (previous !== null) await sessions.delete(previous);
    const token = await sessions.create(
      (sessionToken) => ({
        keyId: principal.keyId,
        adminUserId: principal.adminUserId,
        sealedKey: sealWithToken(key, sessionToken),
      }),
      seconds,
    );
    await recordAudit(pool, ids, {
      adminUserId: principal.adminUserId,
      apiKeyId: principal.keyId,
      targetType: 'admin_api_key',
      targetId: principal.keyId,
      action: 'create_console_session',
      reason: null,
      metadata: { expires_in_seconds: String(seconds) },
    });
    res.setHeader('Set-Cookie', sessionCookie(config, cookie, token, seconds));
    res.redirect(303, `${base}/`);
  };
}
