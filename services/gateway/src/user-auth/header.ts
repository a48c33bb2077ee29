/**
 * `Authorization: <token>`, `Bot <token>` or `Bearer <token>` (docs/decisions.md#webhooks): Fluxer's
 * clients send the bare token, Discord libraries send `Bot …`, OAuth-style clients `Bearer …`.
 * The scheme is matched case-insensitively (RFC 9110 §11.1). Anything else is no user token;
 * in particular `Admin <key>` is never one.
 */
const USER_TOKEN_HEADER = /^(?:(?:bot|bearer) +)?([A-Za-z0-9_.-]+)$/i;

export function userTokenFromHeader(header: string | undefined): string | null {
  if (header === undefined) return null;
  return USER_TOKEN_HEADER.exec(header.trim())?.[1] ?? null;
}
