import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Measurement } from '../../measure.ts';

/** A real collection before memory readings (the flag is set at run time, for this process only). */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Heap in use after a collection, in MiB (typed arrays' contents live outside it). */
export function heapMiB(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

export function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Wall and CPU milliseconds of `work` (CPU: the machine may be shared, wall then overstates). */
export function timed<T>(work: () => T): { result: T; wallMs: number; cpuMs: number } {
  const cpuStart = cpuMs();
  const started = performance.now();
  const result = work();
  return { result, wallMs: performance.now() - started, cpuMs: cpuMs() - cpuStart };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Each call timed on its own (hrtime), so the tail is real; the timer's own cost is reported. */
export function timeEach(count: number, call: (i: number) => unknown): Float64Array {
  const nanos = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    call(i);
    nanos[i] = Number(process.hrtime.bigint() - started);
  }
  return nanos.sort();
}

/** Calls per second without per-call timers (the throughput a tight loop gets). */
export function throughput(count: number, call: (i: number) => unknown): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) call(i);
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

export function asMeasurement(sortedNanos: Float64Array, throughputPerSecond: number): Measurement {
  const ms = (p: number) => percentile(sortedNanos, p) / 1e6;
  const total = sortedNanos.reduce((sum, value) => sum + value, 0);
  return {
    requestsPerSecond: throughputPerSecond,
    latencyMs: {
      p50: ms(50),
      p90: ms(90),
      p95: ms(95),
      p99: ms(99),
      mean: total / sortedNanos.length / 1e6,
      max: sortedNanos[sortedNanos.length - 1]! / 1e6,
    },
    requests: sortedNanos.length,
    non2xx: 0,
    statusCodes: {},
    errors: 0,
    timeouts: 0,
    bytesPerSecond: 0,
    durationSeconds: total / 1e9,
  };
}
