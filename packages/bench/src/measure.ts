import { cpuPerUnit } from './cpu-per-unit.ts';
import type { AutocannonRun } from './autocannon-run.ts';
import { autocannonLoad } from './load-generator.ts';
import type { MachineCpu } from './machine-cpu.ts';
import type { LoadOptions } from './types.ts';

export interface Measurement {
  /** Mean of the per-second request counts. */
  requestsPerSecond: number;
  /** p95 only where the benchmark sampled latencies itself (autocannon reports no p95). */
  latencyMs: { p50: number; p90: number; p95?: number; p99: number; mean: number; max: number };
  requests: number;
  /** Responses outside 2xx: a throughput number is only meaningful when this is 0. */
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  /** Errors by code (ECONNRESET…), where the benchmark sent the requests itself. */
  errorCodes?: Record<string, number>;
  timeouts: number;
  bytesPerSecond: number;
  durationSeconds: number;
}

/**
 * The least warm-up before a maximum-rate run of a gateway route, whatever --warmup says. A fresh
 * gateway process compiles its hot code over its first many thousand requests, and its compiler
 * threads count in its CPU. With a process per core, each sees half the load and takes twice as
 * long, so the default warm-up measured the gateway while it still compiled
 * (packages/bench/README.md#the-harness). A gateway that has been running does not compile; every
 * target of a run gets the same warm-up.
 */
export const STEADY_STATE_WARMUP_SECONDS = 10;

/** `load` with at least STEADY_STATE_WARMUP_SECONDS of warm-up. */
export function withSteadyStateWarmup(load: LoadOptions): LoadOptions {
  return { ...load, warmupSeconds: Math.max(load.warmupSeconds, STEADY_STATE_WARMUP_SECONDS) };
}

/** A request other than a bare GET: the same method and body on every request. */
export interface MeasuredRequest {
  method: 'GET' | 'POST';
  body?: string;
}

/** Drives `url` with a warm-up run first (discarded: JIT, connection setup, caches), then measures. */
export async function measure(
  url: string,
  load: LoadOptions,
  headers: Record<string, string> = {},
  request: MeasuredRequest = { method: 'GET' },
): Promise<Measurement> {
  return measureRun({ url, connections: load.connections, headers, ...request }, load);
}

/** `run` (its connections and request) for `load`'s warm-up, discarded, then for its measured duration. */
export async function measureRun(
  run: Omit<AutocannonRun, 'durationSeconds' | 'amount'>,
  load: LoadOptions,
): Promise<Measurement> {
  if (load.warmupSeconds > 0) await autocannonLoad({ ...run, durationSeconds: load.warmupSeconds });
  return autocannonLoad({ ...run, durationSeconds: load.durationSeconds });
}

/**
 * A warm-up run, then the measured run, both by `drive` (measure() or a driver of its own), with
 * the CPU milliseconds the process `pid` (the server driven) and the whole machine spent per
 * request of the measured run alone.
 */
export async function measureWithCpu(
  pid: number,
  load: LoadOptions,
  drive: (load: LoadOptions) => Promise<Measurement>,
): Promise<{ measurement: Measurement; cpuMsPerRequest: number; machine: MachineCpu }> {
  if (load.warmupSeconds > 0) await drive({ ...load, durationSeconds: load.warmupSeconds, warmupSeconds: 0 });
  const { result, cpuMsPerUnit, machine } = await cpuPerUnit(
    pid,
    () => drive({ ...load, warmupSeconds: 0 }),
    (m) => m.requests,
  );
  return { measurement: result, cpuMsPerRequest: cpuMsPerUnit, machine };
}

/** a / b, or NaN (JSON null) when b is 0: a ratio to nothing is not a number to quote. */
export function ratio(a: number, b: number): number {
  return b === 0 ? Number.NaN : a / b;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The latency columns of a Measurement from latencies a benchmark sampled itself (ms, any order). */
export function latencySummary(latencies: readonly number[]): Measurement['latencyMs'] {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean: sorted.reduce((sum, ms) => sum + ms, 0) / Math.max(1, sorted.length),
    max: sorted.at(-1) ?? Number.NaN,
  };
}
