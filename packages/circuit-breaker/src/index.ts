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

export interface CircuitBreakerOptions {
  /** The dependency, for errors and logs. */
  name: string;
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
  isOutage,
  openMs,
  onChange,
  now = () => performance.now(),
}: CircuitBreakerOptions): CircuitBreaker {
  let state: CircuitState = 'closed';
  let openedAt = 0;
  let probing = false;

  const open = (error: unknown) => {
    openedAt = now();
    if (state === 'open') return;
    state = 'open';
    onChange?.('open', error instanceof Error ? error.message : String(error));
  };
  const close = () => {
    if (state === 'closed') return;
    state = 'closed';
    onChange?.('closed', 'a call succeeded');
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

  return {
    run,
    get state() {
      return state;
    },
  };
}
