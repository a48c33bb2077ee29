import type { Request } from 'express';
import type { GatewayConfig } from '../config.ts';
import { publicDashboardPath, SESSION_COOKIE } from './paths.ts';

/** The session token the browser sent, or null. Parses `Cookie` by hand: one cookie is all we read. */
export function sessionTokenFrom(req: Request): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === SESSION_COOKIE) return pair.slice(at + 1).trim() || null;
  }
  return null;
}

/**
 * `Set-Cookie` for a session token (`maxAgeSeconds` 0 clears it). HttpOnly: page scripts never
 * see it; SameSite=Strict: no other site's page can make the browser send it; Path: only the
 * dashboard gets it; Secure whenever the public URL is https.
 */
export function sessionCookie(config: GatewayConfig, token: string, maxAgeSeconds: number): string {
  const attributes = [
    `${SESSION_COOKIE}=${token}`,
    `Path=${publicDashboardPath(config)}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (new URL(config.endpoints.api).protocol === 'https:') attributes.push('Secure');
  return attributes.join('; ');
}
