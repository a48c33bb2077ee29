import { onCircuitChange, openCircuits } from '@switchboard/circuit-breaker';
import type { Logger } from '@switchboard/logger';
import { Counter, Gauge, type Registry } from '@switchboard/metrics';

/**
 * The circuit breakers of this process (database pool, object store) on /metrics and in the
 * log: how many are open now, and every transition, with the reason it opened. An open breaker
 * answers 503 at once; the alert rules watch it.
 */
export function watchCircuitBreakers(registry: Registry, logger: Logger): () => void {
  new Gauge({
    name: 'circuit_breaker_open',
    help: 'Circuit breakers of this process that are open now (calls to the dependency fail at once), by dependency.',
    labelNames: ['dependency'] as const,
    registers: [registry],
    collect() {
      for (const [dependency, open] of Object.entries(openCircuits())) this.set({ dependency }, open);
    },
  });
  const transitions = new Counter({
    name: 'circuit_breaker_transitions_total',
    help: 'Circuit breaker transitions in this process, by dependency and the state entered.',
    labelNames: ['dependency', 'state'] as const,
    registers: [registry],
  });
  return onCircuitChange(({ dependency, name, state, reason }) => {
    transitions.inc({ dependency, state });
    if (state === 'open')
      logger.warn({ dependency, breaker: name, reason }, 'circuit opened: calls fail at once until a probe succeeds');
    else logger.info({ dependency, breaker: name }, 'circuit closed: the dependency answers again');
  });
}
