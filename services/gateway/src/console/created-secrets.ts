import { randomBytes } from 'node:crypto';
import { openWithToken, sealWithToken } from './token-seal.ts';
import type { RedisClient } from '@switchboard/redis';

/** Long enough to follow the redirect on a slow link; short enough that nothing lingers. */
const CREATED_SECRET_TTL_SECONDS = 120;
const ID_SHAPE = /^[A-Za-z0-9_-]{22}$/;

export interface CreatedKey {
  keyId: string;
  name: string;
  secret: string;
  acls: string[];
  expiresAt: string | null;
}

/**
 * A new key's secret between the create form's POST and the page that shows it (POST, then
 * redirect): stored sealed under the session token, read once (GETDEL), so a reload or the back
 * button shows it no more and no other session can open it.
 */
export function createdSecrets(redis: RedisClient, prefix: string) {
  const keyOf = (id: string) => `${prefix}:console-created-key:${id}`;
  return {
    async put(created: CreatedKey, sessionToken: string): Promise<string> {
      const id = randomBytes(16).toString('base64url');
      const sealed = sealWithToken(JSON.stringify(created), sessionToken);
      await redis.set(keyOf(id), sealed, 'EX', CREATED_SECRET_TTL_SECONDS);
      return id;
    },
    async take(id: string, sessionToken: string): Promise<CreatedKey | null> {
      if (!ID_SHAPE.test(id)) return null;
      const sealed = await redis.getdel(keyOf(id));
      const opened = sealed === null ? null : openWithToken(sealed, sessionToken);
      return opened === null ? null : (JSON.parse(opened) as CreatedKey);
    },
  };
}
