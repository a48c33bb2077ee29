import type { AuthenticatedAdmin } from '@switchboard/auth';
import { createBatcher } from '@switchboard/batching';
import { findAdminApiKeysWithOwners, isRowError, type Pool } from '@switchboard/db';
import type { Registry } from '@switchboard/metrics';
import type { ChangeFeed } from '../change-feed.ts';
import { credentialMemory } from '../credential-memory.ts';

/** Keys held at most; past it the oldest go (a deployment has a handful of admin keys). */
const MAX_ENTRIES = 10_000;

export interface AdminKeysOptions {
  pool: Pool;
  /** The process's credential change feed; null (CREDENTIAL_CACHE_LEASE_MS=0): no cache, every request reads its key. */
  feed: ChangeFeed | null;
  /** Where lookups by outcome are exported (`/metrics`). */
  metrics: Registry;
}

/** The admin keys requests authenticate with: the key row and its owner's. */
export interface AdminKeys {
  /** The key and its owner, or null when there is no such key; hash and expiry are the caller's to check. */
  lookUp(keyId: string): Promise<AuthenticatedAdmin | null>;
}

/**
 * Keys are read from the database, those of concurrent requests in one statement (one out at a
 * time: the keys arriving meanwhile make the next one bigger, and two out at once cost the ban
 * check more CPU: packages/bench/README.md#credentials-and-admin-keys), and kept while the
 * change feed proves them current (credential-memory.ts): a key deleted through the API fails
 * on every replica from the next request (the route waits for every process:
 * commitCredentialChange); one changed in SQL, as soon as each process hears the commit.
 */
export function createAdminKeys({ pool, feed, metrics }: AdminKeysOptions): AdminKeys {
  const read = createBatcher((keyIds: string[]) => findAdminApiKeysWithOwners(pool, keyIds), {
    maxBatch: 100,
    maxInFlight: 1,
    isItemError: isRowError,
  });
  if (feed === null) return { lookUp: read };
  const memory = credentialMemory<AuthenticatedAdmin>(feed, {
    maxEntries: MAX_ENTRIES,
    registry: metrics,
    metric: 'admin_key_lookups_total',
    help: 'Admin key lookups of admin requests: outcome="hit" answered from memory, "read" from PostgreSQL.',
  });
  return { lookUp: (keyId) => memory(keyId, () => read(keyId)) };
}
