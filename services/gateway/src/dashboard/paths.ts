import type { GatewayConfig } from '../config.ts';

/** Where the gateway mounts the queue dashboard (login page, bull-board, logout). */
export const DASHBOARD_PATH = '/v1/admin/dashboard';

/** The admin route that turns an API key into a dashboard session (ADMIN_ROUTES). */
export const DASHBOARD_SESSION_PATH = `${DASHBOARD_PATH}/session`;

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
