import { latencySummary, type Measurement } from '../../measure.ts';

/** Runs `count` operations, at most `concurrency` at once, each in its turn (index 0, 1, …). */
export async function runConcurrently(
  count: number,
  concurrency: number,
  operation: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await operation(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/**
 * Times `count` operations run `concurrency` at a time: operations per second over the whole
 * run, latency of each. `operation` answers a status (200 for a success).
 */
export async function timedMeasurement(
  count: number,
  operation: (index: number) => Promise<number>,
  concurrency: number,
): Promise<Measurement> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const started = performance.now();
  await runConcurrently(count, concurrency, async (index) => {
    const begun = performance.now();
    const status = await operation(index).catch(() => 0);
    latencies.push(performance.now() - begun);
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
  });
  const seconds = (performance.now() - started) / 1000;
  const failures = count - (statusCodes['200'] ?? 0);
  return {
    requestsPerSecond: count / seconds,
    latencyMs: latencySummary(latencies),
    requests: count,
    non2xx: failures,
    statusCodes,
    errors: statusCodes['0'] ?? 0,
    timeouts: 0,
    bytesPerSecond: 0,
    durationSeconds: seconds,
  };
}
