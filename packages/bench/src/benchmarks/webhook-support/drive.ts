import { autocannonLoad } from '../../load-generator.ts';
import { measureRun, measureWithCpu, type Measurement } from '../../measure.ts';
import type { PacedRequest } from '../../paced-load.ts';
import type { LoadOptions } from '../../types.ts';

export interface PostLoad {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Header given a fresh UUID on every request (X-GitHub-Delivery: each delivery is new). */
  uniqueHeader?: string;
}

/** Real GitHub push deliveries to `url` (/codehost): `X-GitHub-Event: push`, a fresh X-GitHub-Delivery each (a new dedupe key for the worker). */
export function pushDeliveries(url: string, body: string): PostLoad {
  return { url, body, headers: { 'x-github-event': 'push' }, uniqueHeader: 'x-github-delivery' };
}

/** The headers of every request of `load`: a JSON body, and the load's own. */
function postHeaders(load: PostLoad): Record<string, string> {
  return { 'content-type': 'application/json', ...load.headers };
}

/** `load` as one request that every connection of a load sends (autocannon's or a paced one). */
export function pacedPosts(load: PostLoad): PacedRequest {
  return { ...load, method: 'POST', headers: postHeaders(load) };
}

/**
 * POSTs the same body as fast as `load.connections` allow, or at autocannon's `overallRate`
 * (each connection sends its share of a second as fast as it can, then waits for the next
 * second): a discarded warm-up, then the measurement.
 */
export async function measurePosts(
  load: PostLoad,
  loadOptions: LoadOptions,
  overallRate?: number,
): Promise<Measurement> {
  return measureRun(
    {
      ...pacedPosts(load),
      connections: loadOptions.connections,
      ...(overallRate === undefined ? {} : { overallRate }),
    },
    loadOptions,
  );
}

/** Warm-up, then the measured run of `load`, with the CPU time the process `pid` spent per request. */
export function measurePostsWithCpu(pid: number, load: PostLoad, loadOptions: LoadOptions) {
  return measureWithCpu(pid, loadOptions, (measured) => measurePosts(load, measured));
}

/** POSTs exactly `amount` requests (to fill a queue), and says how many were not 2xx. */
export async function postMany(load: PostLoad, amount: number, connections: number): Promise<Measurement> {
  return autocannonLoad({ ...pacedPosts(load), connections, amount });
}
