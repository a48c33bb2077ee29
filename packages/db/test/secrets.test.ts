import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NO_SECRET_KEYS, openWebhookSecret, sealWebhookSecret, secretKeyId, secretKeyring } from '../src/index.ts';

const OLD = randomBytes(32);
const NEW = randomBytes(32);

describe('webhook secret sealing (docs/decisions.md#secrets-encrypted-at-rest)', () => {
  it('round-trips under the write key, a fresh IV each time, and never holds the plaintext', () => {
    const keyring = secretKeyring([OLD]);
    const first = sealWebhookSecret(keyring, '42', 'sesame');
    const second = sealWebhookSecret(keyring, '42', 'sesame');
    expect(first.keyId).toBe(secretKeyId(OLD));
    expect(first.secret).not.toBe(second.secret);
    expect(first.secret).not.toContain('sesame');
    expect(openWebhookSecret(keyring, '42', first)).toBe('sesame');
    expect(openWebhookSecret(keyring, '42', sealWebhookSecret(keyring, '42', 'ünïcødé ✓'))).toBe('ünïcødé ✓');
  });

  it('rotates: the old key still opens, new writes take the first key', () => {
    const sealedOld = sealWebhookSecret(secretKeyring([OLD]), '7', 'before');
    const rotated = secretKeyring([NEW, OLD]);
    expect(openWebhookSecret(rotated, '7', sealedOld)).toBe('before');
    expect(sealWebhookSecret(rotated, '7', 'after').keyId).toBe(secretKeyId(NEW));
    // A key no longer configured cannot open what it sealed: said, never guessed.
    expect(() => openWebhookSecret(secretKeyring([NEW]), '7', sealedOld)).toThrow(/not configured/);
  });

  it("binds a sealed secret to its webhook: another row's copy does not open", () => {
    const keyring = secretKeyring([NEW]);
    const sealed = sealWebhookSecret(keyring, '1', 'mine');
    expect(() => openWebhookSecret(keyring, '2', sealed)).toThrow();
  });

  it('stores and reads secrets as given without a key (development, rows from before)', () => {
    expect(sealWebhookSecret(NO_SECRET_KEYS, '1', 'plain')).toEqual({ secret: 'plain', keyId: null });
    expect(openWebhookSecret(secretKeyring([NEW]), '1', { secret: 'plain', keyId: null })).toBe('plain');
  });
});
