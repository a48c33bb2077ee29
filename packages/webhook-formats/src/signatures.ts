import { createHmac, timingSafeEqual } from 'node:crypto';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

function hmacSha256(secret: string, rawBody: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(rawBody).digest();
}

/** Compares the expected digest with a hex one in constant time; malformed hex never matches. */
function matchesHexDigest(expected: Buffer, hex: string): boolean {
  if (!HEX_SHA256.test(hex)) return false;
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}

/**
 * Checks GitHub's `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`. The body must
 * be the bytes as received: a re-serialised JSON document does not verify.
 */
export function verifyGitHubSignature(secret: string, rawBody: Uint8Array, header: string | undefined): boolean {
  if (header === undefined) return false;
  const value = header.trim();
  if (!value.startsWith('sha256=')) return false;
  return matchesHexDigest(hmacSha256(secret, rawBody), value.slice('sha256='.length));
}

/** Checks Sentry's `Sentry-Hook-Signature: <hex HMAC-SHA256 of the raw body>` (client secret). */
export function verifySentrySignature(secret: string, rawBody: Uint8Array, header: string | undefined): boolean {
  if (header === undefined) return false;
  return matchesHexDigest(hmacSha256(secret, rawBody), header.trim());
}
