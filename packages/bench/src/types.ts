import type { CleanupStack } from './cleanup.ts';
import type { Measurement } from './measure.ts';
import type { RunningService } from './processes.ts';

/** How hard and how long every target is driven; the same for a target and its baseline. */
export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

/** What a benchmark can ask the harness for; everything it starts is stopped by `cleanup`. */
export interface BenchContext {
  load: LoadOptions;
  cleanup: CleanupStack;
  /** Spawns the gateway on its own database, Redis prefix and bucket; resolves once /healthz answers. */
  startGateway(env?: Record<string, string>): Promise<RunningService>;
  /**
   * The environment the gateway gets (DATABASE_URL, REDIS_URL, …), for a benchmark that seeds
   * data into the run's own database before measuring.
   */
  serviceEnv(): Promise<Record<string, string>>;
  /** Spawns a bare express 5 server answering every GET with these exact bytes and headers. */
  startStaticBaseline(response: CapturedResponse): Promise<RunningService>;
  log(message: string): void;
}

export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One measured target of a benchmark, e.g. "gateway" and "baseline". */
export interface TargetResult {
  target: string;
  url: string;
  measurement: Measurement;
}

export interface BenchReport {
  benchmark: string;
  /** Configuration that matters to read the numbers (e.g. rate limits off). */
  notes: string[];
  targets: TargetResult[];
  /** Named ratios, e.g. `gateway/baseline rps`. */
  ratios: Record<string, number>;
}

export interface Benchmark {
  name: string;
  description: string;
  /** Measured seconds when --duration is not given (default: the CLI's). */
  defaultDurationSeconds?: number;
  run(context: BenchContext): Promise<BenchReport>;
}
