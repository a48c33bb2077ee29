import { randomBytes } from 'node:crypto';

export const BASE62_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// The largest multiple of 62 that fits in a byte: bytes at or above it are thrown away, so
// every character is equally likely (a plain `byte % 62` favours the first 8 characters).
const UNBIASED_LIMIT = 256 - (256 % BASE62_ALPHABET.length);

/** `length` characters of [A-Za-z0-9] from the CSPRNG, by rejection sampling. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    // About 3% of bytes are rejected; draw a little extra to usually finish in one round.
    const bytes = randomBytes(Math.ceil((length - out.length) * 1.1) + 4);
    for (const byte of bytes) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += BASE62_ALPHABET[byte % BASE62_ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}
