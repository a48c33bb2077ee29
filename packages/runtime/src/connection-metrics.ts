import { databaseConnections } from '@switchboard/db';
import { Gauge, type Registry } from '@switchboard/metrics';
import { redisConnections } from '@switchboard/redis';

/**
 * The connections this process holds, read when scraped: what the connection budget (the root
 * README's Connection budget) is checked against. A gateway of several processes sums its
 * processes' figures.
 */
export function exportConnectionMetrics(registry: Registry): void {
  new Gauge({
    name: 'db_connections',
    help: 'PostgreSQL connections of this process: kind="pool" (state="open" of which state="idle"), kind="session" (LISTEN, state="open").',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    collect() {
      const { pool, session } = databaseConnections();
      this.set({ kind: 'pool', state: 'open' }, pool.open);
      this.set({ kind: 'pool', state: 'idle' }, pool.idle);
      this.set({ kind: 'session', state: 'open' }, session);
    },
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'The most pooled PostgreSQL connections this process may open (DATABASE_POOL_SIZE).',
    registers: [registry],
    collect() {
      this.set(databaseConnections().pool.max);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Statements and checkouts waiting for a pooled PostgreSQL connection: above zero, the pool is the bottleneck.',
    registers: [registry],
    collect() {
      this.set(databaseConnections().pool.waiting);
    },
  });
  new Gauge({
    name: 'redis_connections',
    help: 'Redis connections of this process by role: worker (blocking: BullMQ fetches, queue events, subscribers), producer and client (request paths).',
    labelNames: ['role'] as const,
    registers: [registry],
    collect() {
      for (const [role, open] of Object.entries(redisConnections())) this.set({ role }, open);
    },
  });
}
