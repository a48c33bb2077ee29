import type { AuthenticatedAdmin } from '@switchboard/auth';
import { createBatcher } from '@switchboard/batching';
import { findAdminApiKeysWithOwners, isRowError, type Pool } from '@switchboard/db';
import type { Registry } from '@switchboard/metrics';
import type { ChangeFeed } from '../change-feed.ts';
import { lookupCounter } from '../lookup-counts.ts';

/** Keys held at most; past it the oldest go (a deployment has a handful of admin keys). */
const MAX_ENTRIES = 10_000;
/** An entry is read again after this long even with the feed live: a bound on any bug of ours. */
const MAX_AGE_MS = 60_000;

export interface AdminKeysOptions {
  pool: Pool;
  /** The process's credential change feed; null (CREDENTIAL_CACHE_LEASE_MS=0): no cache, every request reads its key. */
  feed: ChangeFeed | null;
  /** Where lookups by outcome and the feed's state are exported (`/metrics`). */
  metrics: Registry;
}

/** The admin keys requests authenticate with: the key row and its owner's. */
export interface AdminKeys {
  /** The key and its owner, or null when there is no such key; hash and expiry are the caller's to check. */
  lookUp(keyId: string): Promise<AuthenticatedAdmin | null>;
  /**
   * After a committed change to keys or admins (its transaction id): resolves once no gateway
   * process can answer from what it cached before it (decisions §2: the very next request).
   */
  applied(txid: string): Promise<void>;
}

interface Entry {
  found: AuthenticatedAdmin;
  storedAt: number;
}

/**
 * Keys are read from the database, those of concurrent requests in one statement (one out at a
 * time: the keys arriving meanwhile make the next one bigger; toggled run by run inside one
 * gateway under the ban-check load, two out cost 48.8 against 47.0 µs of gateway CPU per check),
 * and kept only while the change feed proves this process would have heard any change to them
 * (change-feed.ts): a key deleted through the API fails on every replica from the next request;
 * one changed in SQL, as soon as each process hears the commit. Unknown keys are not kept.
 */
export function createAdminKeys(options: AdminKeysOptions): AdminKeys {
  const { pool } = options;
  const read = createBatcher((keyIds: string[]) => findAdminApiKeysWithOwners(pool, keyIds), {
    maxBatch: 100,
    maxInFlight: 1,
    isItemError: isRowError,
  });
  const { feed } = options;
  if (feed === null) return { lookUp: read, applied: async () => {} };

  const entries = new Map<string, Entry>();
  const counts = lookupCounter(
    options.metrics,
    'admin_key_lookups_total',
    'Admin key lookups of admin requests: outcome="hit" answered from memory, "read" from PostgreSQL.',
  );
  feed.onChange(() => entries.clear());

  const lookUp = async (keyId: string): Promise<AuthenticatedAdmin | null> => {
    const at = Date.now();
    const entry = entries.get(keyId);
    const mark = feed.position();
    if (entry && mark !== null && at - entry.storedAt < MAX_AGE_MS) {
      counts.hit += 1;
      return entry.found;
    }
    counts.read += 1;
    const found = await read(keyId);
    // A read that began before a change may carry the old row: kept only if nothing was heard since.
    if (found && mark !== null && feed.unchangedSince(mark)) {
      entries.delete(keyId);
      entries.set(keyId, { found, storedAt: at });
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    }
    return found;
  };
  return { lookUp, applied: (txid) => feed.applied(txid) };
}
