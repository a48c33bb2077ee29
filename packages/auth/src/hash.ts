import { hash, timingSafeEqual } from 'node:crypto';

/**
 * SHA-256 of the whole credential string. Our credentials carry at least 190 bits of CSPRNG
 * entropy, so a fast hash is enough (docs/decisions.md#admin-keys): nothing is gained by a slow one.
 */
export function hashCredential(raw: string): Buffer {
  return digest(raw);
}

/**
 * One-shot: cheaper than createHash().update().digest() on a credential's few bytes
 * (packages/bench/README.md#credentials-and-admin-keys).
 */
function digest(value: string | Uint8Array): Buffer {
  return hash('sha256', value, 'buffer');
}

/**
 * Constant-time equality of two SHA-256 digests (hashCredential's output, or a stored one):
 * their length is public and fixed, so they are compared as they are, without digesting again.
 */
export function digestsEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Constant-time equality of two credentials or credential hashes. Both sides are digested
 * first, so the time taken does not even reveal whether the lengths differ.
 */
export function credentialsEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  return timingSafeEqual(digest(a), digest(b));
}
