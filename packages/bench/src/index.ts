// What a benchmark module needs (benchmarks live in src/benchmarks and register in its index).
export type { Benchmark, BenchContext, BenchReport, CapturedResponse, LoadOptions, TargetResult } from './types.ts';
export { measure, ratio, type Measurement } from './measure.ts';
