/** Thrown instead of calling a dependency that is known to be unreachable. */
export class CircuitOpenError extends Error {
  override readonly name = 'CircuitOpenError';
  readonly dependency: string;

  constructor(dependency: string) {
    super(`${dependency} is unreachable (circuit open)`);
    this.dependency = dependency;
  }
}

export type CircuitState = 'closed' | 'open';

/** What a breaker guards, for metrics and alerts: a bounded set, unlike `name`. */
export type DependencyKind = 'database' | 'object-store';

/** One transition of any breaker of this process (see onCircuitChange). */
export interface CircuitChange {
  dependency: DependencyKind;
  name: string;
  state: CircuitState;
  reason: string;
}

const changeListeners = new Set<(change: CircuitChange) => void>();
/** Weakly: a breaker goes with the pool or client it guards (tests make many). */
const breakers = new Set<WeakRef<CircuitBreaker & { dependency: DependencyKind }>>();

/**
 * Tells `listener` of every breaker's transitions in this process (the runtime logs them and
 * counts them for /metrics); returns what stops it.
 */
export function onCircuitChange(listener: (change: CircuitChange) => void): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** How many breakers of each dependency kind are open now, read when scraped. */
export function openCircuits(): Record<DependencyKind, number> {
  const open: Record<DependencyKind, number> = { database: 0, 'object-store': 0 };
  for (const reference of breakers) {
    const breaker = reference.deref();
    if (!breaker) breakers.delete(reference);
    else if (breaker.state === 'open') open[breaker.dependency] += 1;
  }
  return open;
}

export interface CircuitBreakerOptions {
  /** The dependency, for errors and logs. */
  name: string;
  /** Its kind, for metrics; unset breakers are not reported (tests' own). */
  dependency?: DependencyKind;
  /** Whether an error says the dependency is unreachable (not merely that one call was wrong). */
  isOutage: (error: unknown) => boolean;
  /** How long the circuit stays open before one call probes again. */
  openMs: number;
  /** Told when the circuit opens or closes. */
  onChange?: (state: CircuitState, reason: string) => void;
  now?: () => number;
}

export interface CircuitBreaker {
  /** Runs `work`, or throws CircuitOpenError at once while the circuit is open and not due a probe. */
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly state: CircuitState;
}

/**
 * Closed: every call runs; one that fails with an outage opens the circuit. Open: calls fail
 * at once, except one probe per `openMs` (a single one in flight); the probe's success closes
 * the circuit, its outage keeps it open for another `openMs`. Calls that fail for other reasons
 * (a constraint, a bad request) say the dependency answered, and close it too.
 */
export function createCircuitBreaker({
  name,
  dependency,
  isOutage,
  openMs,
  onChange,
  now = () => performance.now(),
}: CircuitBreakerOptions): CircuitBreaker {
  let state: CircuitState = 'closed';
  let openedAt = 0;
  let probing = false;

  const tell = (next: CircuitState, reason: string) => {
    onChange?.(next, reason);
    if (!dependency) return;
    for (const listener of changeListeners) listener({ dependency, name, state: next, reason });
  };
  const open = (error: unknown) => {
    openedAt = now();
    if (state === 'open') return;
    state = 'open';
    tell('open', error instanceof Error ? error.message : String(error));
  };
  const close = () => {
    if (state === 'closed') return;
    state = 'closed';
    tell('closed', 'a call succeeded');
  };

  async function run<T>(work: () => Promise<T>): Promise<T> {
    const probe = state === 'open';
    if (probe && (probing || now() - openedAt < openMs)) throw new CircuitOpenError(name);
    if (probe) probing = true;
    try {
      const result = await work();
      close();
      return result;
    } catch (error) {
      if (isOutage(error)) open(error);
      else close();
      throw error;
    } finally {
      if (probe) probing = false;
    }
  }

  const breaker = {
    run,
    get state() {
      return state;
    },
  };
  // The breaker itself, held by what it guards, so it is counted exactly as long as that lives.
  if (dependency) breakers.add(new WeakRef(Object.assign(breaker, { dependency })));
  return breaker;
}
export { isNetworkFailure } from './network.ts';
