import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type { Measurement } from './measure.ts';
import type { PacedRequest } from './paced-load.ts';

/**
 * One autocannon run as plain data, so it can be handed to the load generator's process: the
 * request a paced load would send (a fresh UUID in its `uniqueHeader` each time), on every
 * connection, for `durationSeconds` or until `amount` requests.
 */
export interface AutocannonRun extends PacedRequest {
  connections: number;
  /** autocannon's overallRate: each connection sends its share of every second as fast as it can, then waits. */
  overallRate?: number;
  durationSeconds?: number;
  amount?: number;
}

function autocannonOptions(run: AutocannonRun): autocannon.Options {
  const { uniqueHeader } = run;
  return {
    url: run.url,
    connections: run.connections,
    method: run.method,
    headers: run.headers,
    // Encoded once: given a string, autocannon encodes it again for every request it rebuilds
    // (every one, with a unique header), and that churn kept the generator in mark-compacts.
    ...(run.body === undefined ? {} : { body: Buffer.from(run.body) }),
    ...(run.overallRate === undefined ? {} : { overallRate: run.overallRate }),
    ...(run.durationSeconds === undefined ? {} : { duration: run.durationSeconds }),
    ...(run.amount === undefined ? {} : { amount: run.amount }),
    ...(uniqueHeader
      ? {
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                headers: { ...request.headers, [uniqueHeader]: randomUUID() },
              }),
            },
          ],
        }
      : {}),
  };
}

/** One autocannon result as the report's measurement. */
function toMeasurement(result: autocannon.Result): Measurement {
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count ?? 0]),
  );
  return {
    requestsPerSecond: result.requests.average,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      mean: result.latency.average,
      max: result.latency.max,
    },
    requests: result.requests.total,
    non2xx: result.non2xx,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerSecond: result.throughput.average,
    durationSeconds: result.duration,
  };
}

/** Runs `run` with autocannon in this process (the load generator's: see load-generator.ts). */
export async function runAutocannon(run: AutocannonRun): Promise<Measurement> {
  return toMeasurement(await autocannon(autocannonOptions(run)));
}
