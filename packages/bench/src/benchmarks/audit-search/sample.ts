import { latencySummary, type Measurement } from '../../measure.ts';

export interface JsonRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface SampleOptions {
  /** Requests sent and discarded first (cold caches, JIT). */
  warmupMs: number;
  /** Measuring stops after this long or `maxSamples`, whichever comes first, but not before `minSamples`. */
  durationMs: number;
  minSamples: number;
  maxSamples: number;
}

async function once(request: JsonRequest): Promise<{ status: number; ms: number; bytes: number }> {
  const started = process.hrtime.bigint();
  const response = await fetch(request.url, {
    method: request.method,
    headers: { 'content-type': 'application/json', ...request.headers },
    body: JSON.stringify(request.body),
  });
  const bytes = (await response.arrayBuffer()).byteLength;
  return { status: response.status, ms: Number(process.hrtime.bigint() - started) / 1e6, bytes };
}

/**
 * Latency of one request at a time (what one operator waiting on the panel sees), not under
 * concurrent load: per-request latencies with p50/p95/p99.
 */
export async function sampleLatency(request: JsonRequest, options: SampleOptions): Promise<Measurement> {
  const warmupEnd = Date.now() + options.warmupMs;
  while (Date.now() < warmupEnd) await once(request);

  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let bytes = 0;
  const started = Date.now();
  const deadline = started + options.durationMs;
  while (latencies.length < options.maxSamples && (latencies.length < options.minSamples || Date.now() < deadline)) {
    const result = await once(request);
    latencies.push(result.ms);
    statusCodes[result.status] = (statusCodes[result.status] ?? 0) + 1;
    bytes += result.bytes;
  }
  const seconds = (Date.now() - started) / 1000;
  return {
    requestsPerSecond: latencies.length / seconds,
    latencyMs: latencySummary(latencies),
    requests: latencies.length,
    non2xx: Object.entries(statusCodes).reduce((sum, [code, count]) => (code.startsWith('2') ? sum : sum + count), 0),
    statusCodes,
    errors: 0,
    timeouts: 0,
    bytesPerSecond: bytes / seconds,
    durationSeconds: seconds,
  };
}
