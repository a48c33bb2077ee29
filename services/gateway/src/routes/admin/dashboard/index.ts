import type { RequestHandler } from 'express';
import type { z } from 'zod';
import type { dashboardSessionResponseSchema } from '@switchboard/contracts';
import { findAdminApiKeyById } from '@switchboard/db';
import { adminPrincipal, auditReason, recordAudit } from '../../../admin-auth/index.ts';
import { adminSessions, sessionCookie, sessionSeconds } from '../../../admin-session/index.ts';
import { DASHBOARD_PATH, dashboardCookie } from '../../../dashboard/index.ts';
import type { GatewayDeps } from '../../../deps.ts';
import type { AdminHandlers } from '../handlers.ts';

/**
 * POST /admin/dashboard/session: the caller's key (authenticated and holding `jobs:read`, like
 * any admin route) is exchanged for a dashboard session cookie. The session names the key, so
 * every dashboard request re-checks that key; it is audited like any sign-in of a privileged tool.
 */
function createSession({ config, pool, redis, ids }: GatewayDeps): RequestHandler {
  const sessions = adminSessions(redis, config.REDIS_PREFIX, 'dashboard');
  const cookie = dashboardCookie(config);
  return async (req, res) => {
    const { adminUserId, keyId } = adminPrincipal(res);
    const key = await findAdminApiKeyById(pool, keyId);
    const now = Date.now();
    // DASHBOARD_SESSION_TTL_SECONDS, or less when the key expires sooner.
    const seconds = sessionSeconds(config.DASHBOARD_SESSION_TTL_SECONDS, key?.expiresAt ?? null, now);
    const token = await sessions.create({ adminUserId, keyId }, seconds);
    await recordAudit(pool, ids, {
      adminUserId,
      apiKeyId: keyId,
      targetType: 'admin_api_key',
      targetId: keyId,
      action: 'create_dashboard_session',
      reason: auditReason(req),
      metadata: { expires_in_seconds: String(seconds) },
    });
    res.setHeader('Set-Cookie', sessionCookie(config, cookie, token, seconds));
    res.setHeader('Cache-Control', 'no-store');
    const body: z.output<typeof dashboardSessionResponseSchema> = {
      dashboard_url: `${config.endpoints.api}${DASHBOARD_PATH}/`,
      expires_at: new Date(now + seconds * 1000).toISOString(),
    };
    res.json(body);
  };
}

export function dashboardHandlers(deps: GatewayDeps): AdminHandlers {
  return { 'POST /v1/admin/dashboard/session': createSession(deps) };
}
