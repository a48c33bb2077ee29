import type { GatewayConfig } from '../config.ts';

/**
 * Where the gateway mounts the queue dashboard (login page, bull-board, logout). The admin
 * route that opens a session, `POST /v1/admin/dashboard/session` (ADMIN_ROUTES), lies under it,
 * so the session cookie's Path covers both and the login page posts to `<this>/session`.
 */
export const DASHBOARD_PATH = '/v1/admin/dashboard';

/** The session cookie's name; its value is the session token itself. */
export const SESSION_COOKIE = 'sb_dashboard_session';

/**
 * The path browsers see: PUBLIC_BASE_URL may carry a prefix (`https://example.com/api`) that a
 * reverse proxy strips, and bull-board's links, the cookie's Path and redirects must carry it.
 */
export function publicDashboardPath(config: GatewayConfig): string {
  const prefix = new URL(config.endpoints.api).pathname.replace(/\/+$/, '');
  return `${prefix}${DASHBOARD_PATH}`;
}
