import { setTimeout as sleep } from 'node:timers/promises';

/** What one request came back with: its status and, for a refusal, when to come back. */
export interface Reply {
  status: number;
  retryAfter: string | null;
}

/** One kind of request of the mixed traffic, with the answers it gets when all is well. */
export interface RequestKind {
  name: string;
  /** The statuses a healthy system answers (a job route: done, or still running). */
  expected: readonly number[];
  /** Sends one request, abandoned after `timeoutMs`. */
  send(timeoutMs: number): Promise<Reply>;
  /** Sent only once the outage has begun (TrafficOptions.outageBegun). */
  sinceOutage?: boolean;
}

/** One request as the client saw it; times in ms from the start of the traffic. */
export interface Sample {
  kind: string;
  startedAt: number;
  latencyMs: number;
  /**
   * The status; `none` when no answer came before the client gave up, `dropped` when the
   * connection failed first (its process was killed, or refused it).
   */
  status: number | 'none' | 'dropped';
  /** The answer's `Retry-After`, null without one (or without an answer). */
  retryAfter: string | null;
}

export interface TrafficOptions {
  /** Requests in flight at once: each client sends its next request when the last one is answered. */
  clients: number;
  /** Pause between a client's requests: mixed traffic, not a saturation test. */
  paceMs: number;
  /** When the client gives up on an answer. */
  abandonAfterMs: number;
  /** Traffic stops once this says so (requests in flight still finish). */
  stop(): boolean;
  /** Kinds `sinceOutage` are sent once this says so. */
  outageBegun(): boolean;
}

/** A request with no answer: abandoned by the client (its timeout), or its connection failed. */
function unanswered(error: unknown): Pick<Sample, 'status' | 'retryAfter'> {
  const abandoned = error instanceof Error && error.name === 'TimeoutError';
  return { status: abandoned ? 'none' : 'dropped', retryAfter: null };
}

/** The traffic's clock: ms since it started. */
export type Clock = () => number;

/**
 * Sends the kinds round-robin from `clients` loops until `stop()`, recording every request.
 * Answers the clock too, so the scenario can place its fault on the same time line.
 */
export function startTraffic(
  kinds: readonly RequestKind[],
  options: TrafficOptions,
): { clock: Clock; done: Promise<Sample[]> } {
  const origin = performance.now();
  const clock = () => performance.now() - origin;
  const samples: Sample[] = [];
  let next = 0;
  const client = async () => {
    while (!options.stop()) {
      const kind = kinds[next++ % kinds.length]!;
      if (kind.sinceOutage && !options.outageBegun()) continue;
      const startedAt = clock();
      const reply = await kind.send(options.abandonAfterMs).catch(unanswered);
      samples.push({ kind: kind.name, startedAt, latencyMs: clock() - startedAt, ...reply });
      await sleep(options.paceMs);
    }
  };
  const done = Promise.all(Array.from({ length: options.clients }, client)).then(() => samples);
  return { clock, done };
}
