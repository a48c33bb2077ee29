import { Counter, type Registry } from '@switchboard/metrics';

/** Lookups answered from memory (`hit`) and from PostgreSQL (`read`), counted by a cache. */
export interface LookupCounts {
  hit: number;
  read: number;
}

/**
 * Counts kept in plain numbers on the request path and handed to prom-client only when scraped,
 * exported as `name{outcome="hit"|"read"}`.
 */
export function lookupCounter(registry: Registry, name: string, help: string): LookupCounts {
  const counts: LookupCounts = { hit: 0, read: 0 };
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
