import { setTimeout as sleep } from 'node:timers/promises';

/** One kind of request of the mixed traffic, with the answer it gets when all is well. */
export interface RequestKind {
  name: string;
  /** The status a healthy system answers. */
  expected: number;
  /** Sends one request, abandoned after `timeoutMs`; answers its status. */
  send(timeoutMs: number): Promise<number>;
  /** Sent only once the outage has begun (TrafficOptions.outageBegun). */
  sinceOutage?: boolean;
}

/** One request as the client saw it; times in ms from the start of the traffic. */
export interface Sample {
  kind: string;
  startedAt: number;
  latencyMs: number;
  /** The status, or `none` when no answer came before the client gave up (or the connection failed). */
  status: number | 'none';
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
      const status = await kind.send(options.abandonAfterMs).catch(() => 'none' as const);
      samples.push({ kind: kind.name, startedAt, latencyMs: clock() - startedAt, status });
      await sleep(options.paceMs);
    }
  };
  const done = Promise.all(Array.from({ length: options.clients }, client)).then(() => samples);
  return { clock, done };
}
