import { publicPath, type SessionCookie } from '../admin-session/index.ts';
import type { GatewayConfig } from '../config.ts';

/** Where the gateway mounts the operator console. */
export const CONSOLE_PATH = '/console';

/** The path browsers see (PUBLIC_BASE_URL's prefix included): every link and redirect carries it. */
export function publicConsolePath(config: GatewayConfig): string {
  return publicPath(config, CONSOLE_PATH);
}

/** The console's session cookie, scoped to the console (its value is the session token). */
export function consoleCookie(config: GatewayConfig): SessionCookie {
  return { name: 'sb_console_session', path: publicConsolePath(config) };
}
