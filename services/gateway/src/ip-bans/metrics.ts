import { Gauge, Histogram, type Registry } from '@switchboard/metrics';

/** Seconds a full load may take: milliseconds for a few bans to tens of seconds for millions. */
const RELOAD_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** What the gauges read at scrape time: the index as this replica enforces it now. */
export interface IpBanIndexSize {
  /** Bans in the loaded base. */
  baseEntries(): number;
  /** Bans changed since the base was loaded (the overlay a reload folds in). */
  overlayEntries(): number;
  /** Bytes the base holds in typed arrays. */
  baseBytes(): number;
}

export interface IpBanMetrics {
  /** A full load ended after `seconds`; `failed` when it will be retried. */
  reloaded(outcome: 'loaded' | 'failed', seconds: number): void;
}

/** The replica's IP-ban index size (read when scraped) and the time its full reloads take. */
export function ipBanMetrics(registry: Registry, size: IpBanIndexSize): IpBanMetrics {
  new Gauge({
    name: 'ip_ban_index_entries',
    help: 'IP bans this replica enforces: part="base" as loaded, part="overlay" changed since (folded in at the next reload).',
    labelNames: ['part'] as const,
    registers: [registry],
    // Each process of a cluster enforces the same bans from its own copy: one count, not a sum.
    aggregator: 'max',
    collect() {
      this.set({ part: 'base' }, size.baseEntries());
      this.set({ part: 'overlay' }, size.overlayEntries());
    },
  });
  new Gauge({
    name: 'ip_ban_index_bytes',
    help: 'Bytes of the loaded IP-ban index (typed arrays; reason texts aside).',
    registers: [registry],
    collect() {
      this.set(size.baseBytes());
    },
  });
  const reloads = new Histogram({
    name: 'ip_ban_reload_duration_seconds',
    help: 'Full reloads of the IP-ban index from PostgreSQL, by outcome.',
    labelNames: ['outcome'] as const,
    buckets: RELOAD_BUCKETS,
    registers: [registry],
  });
  return { reloaded: (outcome, seconds) => reloads.observe({ outcome }, seconds) };
}
