import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The keys webhook secrets are encrypted with at rest (docs/decisions.md#secrets-encrypted-at-rest):
 * AES-256-GCM, the first key for new writes, every key for reads. A key's id is derived from the
 * key itself, so an id can never name another key than the one that wrote the row.
 */
export interface SecretKeyring {
  /** The id new writes are sealed under; null: no key configured, secrets are stored as given. */
  writeKeyId: string | null;
  keys: ReadonlyMap<string, Buffer>;
}

export const NO_SECRET_KEYS: SecretKeyring = { writeKeyId: null, keys: new Map() };

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The id stored beside a ciphertext: 16 hex characters of the key's SHA-256. */
export function secretKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** A keyring from raw 32-byte keys, the first used for new writes. */
export function secretKeyring(keys: readonly Buffer[]): SecretKeyring {
  if (keys.some((key) => key.length !== KEY_BYTES)) throw new Error(`every secret key must be ${KEY_BYTES} bytes`);
  const byId = new Map(keys.map((key) => [secretKeyId(key), key] as const));
  return { writeKeyId: keys.length > 0 ? secretKeyId(keys[0]!) : null, keys: byId };
}

/** A secret as a row stores it: the text, and the id of the key it is sealed under (null: as given). */
export interface StoredSecret {
  secret: string;
  keyId: string | null;
}

/** Binds a ciphertext to its row, so one webhook's sealed secret cannot be copied onto another. */
const associatedData = (webhookId: string) => Buffer.from(`webhooks.secret:${webhookId}`);

/** Seals a webhook's secret under the write key: base64(iv ‖ ciphertext ‖ tag). No key: stored as given. */
export function sealWebhookSecret(keyring: SecretKeyring, webhookId: string, plaintext: string): StoredSecret {
  if (keyring.writeKeyId === null) return { secret: plaintext, keyId: null };
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyring.keys.get(keyring.writeKeyId)!, iv);
  cipher.setAAD(associatedData(webhookId));
  const sealed = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { secret: sealed.toString('base64'), keyId: keyring.writeKeyId };
}

/**
 * The plaintext of a stored secret, with the key its row names; a row without a key id is
 * plaintext (written before encryption, or with no key configured). Throws when the key is not
 * configured or the ciphertext does not authenticate: a webhook must never verify against a
 * secret that is not the one set.
 */
export function openWebhookSecret(keyring: SecretKeyring, webhookId: string, stored: StoredSecret): string {
  if (stored.keyId === null) return stored.secret;
  const key = keyring.keys.get(stored.keyId);
  if (!key)
    throw new Error(`webhook ${webhookId}: its secret is sealed under key ${stored.keyId}, which is not configured`);
  const sealed = Buffer.from(stored.secret, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(associatedData(webhookId));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
    decipher.final(),
  ]).toString('utf8');
}
