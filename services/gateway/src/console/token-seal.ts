import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const INFO = 'switchboard console session seal';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyFrom(token: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(token, 'utf8'), Buffer.alloc(0), INFO, 32));
}

/**
 * Text a console session keeps in Redis (the admin key it acts with, a new key's secret),
 * sealed (AES-256-GCM) under a key derived from the session token. The token lives only in the
 * browser's cookie and Redis holds only its hash: the stored record alone opens nothing
 * (docs/decisions.md#console).
 */
export function sealWithToken(text: string, token: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(token), iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The sealed text, or null when it was not sealed under this token. */
export function openWithToken(sealed: string, token: string): string | null {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFrom(token), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
