import { publicPath, type SessionCookie } from '../admin-session/index.ts';
import type { GatewayConfig } from '../config.ts';

/**
 * Where the gateway mounts the queue dashboard (login page, bull-board, logout). The admin
 * route that opens a session, `POST /v1/admin/dashboard/session` (ADMIN_ROUTES), lies under it,
 * so the session cookie's Path covers both and the login page posts to `<this>/session`.
 */
export const DASHBOARD_PATH = '/v1/admin/dashboard';

/** The path browsers see (PUBLIC_BASE_URL's prefix included): bull-board's links carry it. */
export function publicDashboardPath(config: GatewayConfig): string {
  return publicPath(config, DASHBOARD_PATH);
}

/** The session cookie (its value is the session token itself), scoped to the dashboard. */
export function dashboardCookie(config: GatewayConfig): SessionCookie {
  return { name: 'sb_dashboard_session', path: publicDashboardPath(config) };
}
