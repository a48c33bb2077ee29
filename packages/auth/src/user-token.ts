import { randomBytes } from 'node:crypto';
import { parseSnowflake } from '@switchboard/snowflake';

// 32 bytes of CSPRNG output: 43 base64url characters, 256 bits.
const SECRET_BYTES = 32;
const USER_TOKEN = /^([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{43})$/;

/**
 * A Discord-shaped token `<base64url(user id)>.<secret>`. User and bot tokens share the
 * shape; which one a token is lives with its stored hash (user_tokens.kind).
 */
export function generateUserToken(userId: string | bigint): string {
  const id = parseSnowflake(String(userId));
  if (id === null) throw new RangeError('user id must be a snowflake');
  const prefix = Buffer.from(id.toString(), 'utf8').toString('base64url');
  return `${prefix}.${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

/** The user id a token claims, or null when it is not shaped like one of our tokens. */
export function parseUserToken(raw: string): { userId: string } | null {
  const match = USER_TOKEN.exec(raw);
  if (!match) return null;
  const prefix = match[1]!;
  const decoded = Buffer.from(prefix, 'base64url');
  // Only the canonical encoding: two spellings of one token must not both parse.
  if (decoded.toString('base64url') !== prefix) return null;
  const id = parseSnowflake(decoded.toString('utf8'));
  return id === null || decoded.toString('utf8') !== id.toString() ? null : { userId: id.toString() };
}
