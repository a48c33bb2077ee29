import { Gauge, type Registry } from '@switchboard/metrics';
import type { SnowflakeLease } from '@switchboard/snowflake';
import type { Readiness } from './health.ts';

/**
 * The process's readiness on /metrics, for alerts: checked at each scrape, as /readyz checks
 * it (a SELECT 1, a PING, a HeadBucket: cheap at a scrape's pace), so it is true whether or not
 * an orchestrator probes the process (compose does not).
 */
export function exportReadiness(registry: Registry, check: () => Promise<Readiness>): void {
  let last: Promise<Readiness> | undefined;
  // Both gauges of one scrape read one check.
  const current = () => {
    last ??= check().finally(() => setImmediate(() => (last = undefined)));
    return last;
  };
  new Gauge({
    name: 'readiness_ready',
    help: 'Whether this process is ready, as /readyz would answer now: 1 ready, 0 not (503).',
    registers: [registry],
    async collect() {
      this.set((await current()).ready ? 1 : 0);
    },
  });
  new Gauge({
    name: 'readiness_check_ok',
    help: 'Each /readyz check of this process now: 1 ok, 0 failed or timed out.',
    labelNames: ['check'] as const,
    registers: [registry],
    async collect() {
      for (const [name, result] of Object.entries((await current()).checks))
        this.set({ check: name }, result === 'ok' ? 1 : 0);
    },
  });
}

/** `snowflake_lease_held`: 0 while the process's worker-id lease is lost and it refuses to mint ids. */
export function exportLeaseState(registry: Registry, lease: Pick<SnowflakeLease, 'held'>): void {
  new Gauge({
    name: 'snowflake_lease_held',
    help: 'Whether this process holds its snowflake worker-id lease (1) or lost it (0: requests that make ids answer 503).',
    registers: [registry],
    collect() {
      this.set(lease.held() ? 1 : 0);
    },
  });
}
