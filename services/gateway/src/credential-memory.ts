import { Counter, type Registry } from '@switchboard/metrics';
import type { ChangeFeed } from './change-feed.ts';

/** An entry is read again after this long even with the feed live: a bound on any bug of ours. */
const MAX_AGE_MS = 60_000;

export interface CredentialMemoryOptions {
  /** Entries held at most; past it the oldest go. */
  maxEntries: number;
  /** Where lookups are counted (`/metrics`): `<metric>{outcome="hit"|"read"}`. */
  registry: Registry;
  metric: string;
  help: string;
}

/** Answers `key` from memory when the entry is young, else `read()`s it. Null (nothing found) is never kept. */
export type CredentialMemory<Value> = (key: string, read: () => Promise<Value | null>) => Promise<Value | null>;

/**
 * Credentials read from PostgreSQL (admin keys with their owners, webhooks' tokens and secrets),
 * used from memory only while the change feed proves this process would have heard any change
 * to them (change-feed.ts): every change heard, or a lost feed, empties the memory, and a read
 * that began before a change was heard is not kept. Unknown keys are never kept, so a new
 * credential works at once.
 */
export function credentialMemory<Value>(feed: ChangeFeed, options: CredentialMemoryOptions): CredentialMemory<Value> {
  const entries = new Map<string, { value: Value; storedAt: number }>();
  feed.onChange(() => entries.clear());
  const counts = lookupCounter(options.registry, options.metric, options.help);
  return async (key, read) => {
    const at = Date.now();
    const mark = feed.position();
    const entry = mark !== null ? entries.get(key) : undefined;
    if (entry && at - entry.storedAt < MAX_AGE_MS) {
      counts.hit += 1;
      return entry.value;
    }
    counts.read += 1;
    const value = await read();
    // A read that began before a change may carry the old row: kept only if nothing was heard since.
    if (value !== null && mark !== null && feed.unchangedSince(mark)) {
      entries.delete(key);
      entries.set(key, { value, storedAt: at });
      if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
    }
    return value;
  };
}

/** Counted in plain numbers on the request path, handed to prom-client only when scraped. */
function lookupCounter(registry: Registry, name: string, help: string): { hit: number; read: number } {
  const counts = { hit: 0, read: 0 };
  new Counter({
    name,
    help,
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ outcome: 'hit' }, counts.hit);
      this.inc({ outcome: 'read' }, counts.read);
    },
  });
  return counts;
}
