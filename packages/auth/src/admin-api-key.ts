import { parseSnowflake } from '@switchboard/snowflake';
import { randomBase62 } from './random.ts';

const SECRET_LENGTH = 32;
const ADMIN_API_KEY = /^fa_(0|[1-9][0-9]{0,18})_([A-Za-z0-9]{32})$/;

/** `fa_<keyId>_<32 base62 chars>` (docs/decisions.md#admin-keys); the key id is the row's snowflake. */
export function generateAdminApiKey(keyId: string | bigint): string {
  const id = parseSnowflake(String(keyId));
  if (id === null) throw new RangeError('admin API key id must be a snowflake');
  return `fa_${id}_${randomBase62(SECRET_LENGTH)}`;
}

/**
 * The key id embedded in a raw key, or null when the string is not shaped like a key. The
 * key is only genuine once its hash matches the stored one.
 */
export function parseAdminApiKey(raw: string): { keyId: string } | null {
  const match = ADMIN_API_KEY.exec(raw);
  if (!match) return null;
  const id = parseSnowflake(match[1]);
  return id === null ? null : { keyId: id.toString() };
}
