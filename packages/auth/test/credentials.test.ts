import { describe, expect, it } from 'vitest';
import {
  BASE62_ALPHABET,
  credentialsEqual,
  generateAdminApiKey,
  generateUserToken,
  generateWebhookToken,
  hashCredential,
  isWebhookTokenShaped,
  parseAdminApiKey,
  parseUserToken,
  randomBase62,
} from '../src/index.ts';

describe('randomBase62', () => {
  it('gives exactly the requested number of alphabet characters', () => {
    for (const length of [0, 1, 32, 64, 1000]) {
      const value = randomBase62(length);
      expect(value).toHaveLength(length);
      expect(value).toMatch(/^[A-Za-z0-9]*$/);
    }
  });

  it('draws every character about equally often (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const sample = randomBase62(620_000);
    for (const char of sample) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 10 000 each (sd 100). Modulo bias would put the first 8 letters near 12 400.
    const firstEight = [...BASE62_ALPHABET.slice(0, 8)].map((c) => counts.get(c)!);
    const rest = [...BASE62_ALPHABET.slice(8)].map((c) => counts.get(c)!);
    for (const count of [...firstEight, ...rest]) expect(count).toBeGreaterThan(9_400);
    for (const count of [...firstEight, ...rest]) expect(count).toBeLessThan(10_600);
  });
});

describe('admin API keys', () => {
  it('have the fa_<snowflake>_<32 base62> shape and parse back to their id', () => {
    const key = generateAdminApiKey('1337133713371337133');
    expect(key).toMatch(/^fa_1337133713371337133_[A-Za-z0-9]{32}$/);
    expect(parseAdminApiKey(key)).toEqual({ keyId: '1337133713371337133' });
  });

  it('are different every time', () => {
    expect(generateAdminApiKey(42n)).not.toBe(generateAdminApiKey(42n));
  });

  it.each([
    '',
    'fa_',
    'fa__abcdefghijklmnopqrstuvwxyzABCDEF',
    'fa_123_short',
    'fa_123_abcdefghijklmnopqrstuvwxyzABCDEFG',
    'fa_0123_abcdefghijklmnopqrstuvwxyzABCDEF',
    'fa_-1_abcdefghijklmnopqrstuvwxyzABCDEF',
    'FA_123_abcdefghijklmnopqrstuvwxyzABCDEF',
    'fa_123_abcdefghijklmnopqrstuvwxyzABCD-F',
    ' fa_123_abcdefghijklmnopqrstuvwxyzABCDEF',
    'fa_9223372036854775808_abcdefghijklmnopqrstuvwxyzABCDEF',
  ])('refuses %j', (raw) => {
    expect(parseAdminApiKey(raw)).toBeNull();
  });

  it('refuses an id that is not a snowflake', () => {
    expect(() => generateAdminApiKey('abc')).toThrow(RangeError);
  });
});

describe('user tokens', () => {
  it('carry the user id before the dot and 43 characters of secret after it', () => {
    const token = generateUserToken('175928847299117063');
    const [prefix, secret] = token.split('.');
    expect(Buffer.from(prefix!, 'base64url').toString()).toBe('175928847299117063');
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parseUserToken(token)).toEqual({ userId: '175928847299117063' });
  });

  it('are different every time', () => {
    expect(generateUserToken(1n)).not.toBe(generateUserToken(1n));
  });

  it.each([
    '',
    'abc',
    `${Buffer.from('12').toString('base64url')}.short`,
    `${Buffer.from('abc').toString('base64url')}.${'a'.repeat(43)}`,
    `${Buffer.from('012').toString('base64url')}.${'a'.repeat(43)}`,
    `${Buffer.from('12').toString('base64url')}.${'a'.repeat(43)}.extra`,
    `${Buffer.from('12').toString('base64url')}=.${'a'.repeat(43)}`,
  ])('refuses %j', (raw) => {
    expect(parseUserToken(raw)).toBeNull();
  });
});

describe('webhook tokens', () => {
  it('are 64 url-safe characters', () => {
    const token = generateWebhookToken();
    expect(token).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(isWebhookTokenShaped(token)).toBe(true);
    expect(generateWebhookToken()).not.toBe(token);
  });

  it('shape check refuses other lengths and characters', () => {
    expect(isWebhookTokenShaped('a'.repeat(63))).toBe(false);
    expect(isWebhookTokenShaped('a'.repeat(65))).toBe(false);
    expect(isWebhookTokenShaped(`${'a'.repeat(63)}/`)).toBe(false);
  });
});

describe('hashing and comparison', () => {
  it('hashes the whole string with SHA-256', () => {
    expect(hashCredential('abc').toString('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hashCredential('abc')).toHaveLength(32);
  });

  it('compares strings and buffers of any lengths', () => {
    const key = generateAdminApiKey(7n);
    expect(credentialsEqual(hashCredential(key), hashCredential(key))).toBe(true);
    expect(credentialsEqual(hashCredential(key), hashCredential(`${key}x`))).toBe(false);
    expect(credentialsEqual('token', 'token')).toBe(true);
    expect(credentialsEqual('token', 'tokens')).toBe(false);
    expect(credentialsEqual('', '')).toBe(true);
    expect(credentialsEqual(Buffer.from('a'), 'a')).toBe(true);
  });
});
