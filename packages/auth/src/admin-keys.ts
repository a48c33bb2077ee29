import {
  findAdminApiKeyWithOwner,
  insertAdminApiKey,
  touchAdminApiKeyLastUsed,
  upsertAdminUserByName,
  withTransaction,
  type AdminApiKey,
  type AdminUser,
  type Pool,
  type Queryable,
} from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';
import { generateAdminApiKey, parseAdminApiKey } from './admin-api-key.ts';
import { digestsEqual, hashCredential } from './hash.ts';

const DAY_MS = 86_400_000;
export const MAX_KEY_LIFETIME_DAYS = 365;

export interface IssueAdminApiKeyInput {
  adminUserId: string;
  name: string;
  acls: string[];
  /** Whole days, 1..365; absent or null: the key never expires. */
  expiresInDays?: number | null;
  /** The latest the key may expire (the creating key's own expiry): a later expiry is cut to it. */
  notAfter?: Date | null;
}

/** The stored record plus the plaintext key, which exists only here: show it once. */
export interface IssuedAdminApiKey {
  key: string;
  record: AdminApiKey;
}

/**
 * Mints a key for an existing admin and stores its hash. Callers check beforehand that the
 * creator may grant `acls` (docs/decisions.md#acls); this only stores what it is given.
 */
export async function issueAdminApiKey(
  db: Queryable,
  ids: SnowflakeGenerator,
  input: IssueAdminApiKeyInput,
): Promise<IssuedAdminApiKey> {
  const days = input.expiresInDays ?? null;
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_KEY_LIFETIME_DAYS)) {
    throw new RangeError(`expiresInDays must be a whole number of days in 1..${MAX_KEY_LIFETIME_DAYS}`);
  }
  const id = ids.next();
  const key = generateAdminApiKey(id);
  const record = await insertAdminApiKey(db, {
    id,
    adminUserId: input.adminUserId,
    name: input.name,
    keyHash: hashCredential(key),
    acls: input.acls,
    expiresAt:
      days === null ? null : new Date(Math.min(Date.now() + days * DAY_MS, input.notAfter?.getTime() ?? Infinity)),
  });
  return { key, record };
}

export interface CreateAdminWithKeyInput {
  name: string;
  acls: string[];
  keyName?: string;
  expiresInDays?: number | null;
}

/**
 * The operator's bootstrap (CLI `admin create`): creates the admin named `name`, or reuses it
 * and adds `acls` to its set, then issues a key with exactly `acls`. One transaction.
 */
export async function createAdminWithKey(
  pool: Pool,
  ids: SnowflakeGenerator,
  input: CreateAdminWithKeyInput,
): Promise<{ admin: AdminUser; adminCreated: boolean } & IssuedAdminApiKey> {
  return withTransaction(pool, async (client) => {
    const { created, ...admin } = await upsertAdminUserByName(client, {
      id: ids.next(),
      name: input.name,
      acls: input.acls,
    });
    const issued = await issueAdminApiKey(client, ids, {
      adminUserId: admin.id,
      name: input.keyName ?? input.name,
      acls: input.acls,
      expiresInDays: input.expiresInDays ?? null,
    });
    return { admin, adminCreated: created, ...issued };
  });
}

export interface AuthenticatedAdmin {
  key: AdminApiKey;
  owner: Pick<AdminUser, 'id' | 'name' | 'acls' | 'createdAt'>;
}

export interface AuthenticateOptions {
  now?: Date;
  touchIntervalSeconds?: number;
  /**
   * False: do not write last_used_at here. The gateway records uses itself, off the request's
   * critical path and throttled in Redis across replicas.
   */
  recordUse?: boolean;
  /** How the key row is read; the gateway passes one that batches concurrent requests. */
  lookUp?: (keyId: string) => Promise<AuthenticatedAdmin | null>;
}

/**
 * Resolves `Authorization: Admin <raw>`: parse, look up by the embedded id, refuse an expired
 * key, compare hashes in constant time, then record the use (at most once a minute). Null
 * means 401. The row comes from `lookUp` when given (the gateway's keeps rows only while they
 * are provably current), else from the database; expiry and hash are checked every time.
 */
export async function authenticateAdminApiKey(
  db: Queryable,
  raw: string,
  { now = new Date(), touchIntervalSeconds = 60, recordUse = true, lookUp }: AuthenticateOptions = {},
): Promise<AuthenticatedAdmin | null> {
  const parsed = parseAdminApiKey(raw);
  if (!parsed) return null;
  const found = await (lookUp ? lookUp(parsed.keyId) : findAdminApiKeyWithOwner(db, parsed.keyId));
  if (!found) return null;
  if (found.key.expiresAt !== null && found.key.expiresAt.getTime() <= now.getTime()) return null;
  if (!digestsEqual(hashCredential(raw), found.key.keyHash)) return null;
  if (recordUse) await touchAdminApiKeyLastUsed(db, found.key.id, touchIntervalSeconds);
  return found;
}
