import type { Request } from 'express';
import type { GatewayConfig } from '../config.ts';

/** A session cookie: its name and the path browsers scope it to (the tool's public path). */
export interface SessionCookie {
  name: string;
  path: string;
}

/** The session token the browser sent, or null. Parses `Cookie` by hand: one cookie is all we read. */
export function sessionTokenFrom(req: Request, cookie: SessionCookie): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === cookie.name) return pair.slice(at + 1).trim() || null;
  }
  return null;
}

/**
 * `Set-Cookie` for a session token (`maxAgeSeconds` 0 clears it). HttpOnly: page scripts never
 * see it; SameSite=Strict: no other site's page can make the browser send it; Path: only the
 * tool gets it; Secure whenever the public URL is https.
 */
export function sessionCookie(
  config: GatewayConfig,
  cookie: SessionCookie,
  token: string,
  maxAgeSeconds: number,
): string {
  const attributes = [
    `${cookie.name}=${token}`,
    `Path=${cookie.path}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (new URL(config.endpoints.api).protocol === 'https:') attributes.push('Secure');
  return attributes.join('; ');
}

/**
 * The path browsers see for a tool mounted at `path`: PUBLIC_BASE_URL may carry a prefix
 * (`https://example.com/api`) that a reverse proxy strips, and links, the cookie's Path and
 * redirects must carry it.
 */
export function publicPath(config: GatewayConfig, path: string): string {
  const prefix = new URL(config.endpoints.api).pathname.replace(/\/+$/, '');
  return `${prefix}${path}`;
}
