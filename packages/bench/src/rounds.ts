import type { BenchReport } from './types.ts';

/** One figure over every round of a benchmark: its value each round, in order, and their spread. */
export interface Spread {
  values: number[];
  median: number;
  min: number;
  max: number;
}

export interface RoundsSummary {
  benchmark: string;
  rounds: number;
  ratios: Record<string, Spread>;
  /** Per target: what the ratios are made of, and all a latency benchmark (no ratios) reports. */
  requestsPerSecond: Record<string, Spread>;
  p99Ms: Record<string, Spread>;
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function spreadOf(values: number[]): Spread {
  const empty = values.length === 0;
  return {
    values,
    median: median(values),
    min: empty ? Number.NaN : Math.min(...values),
    max: empty ? Number.NaN : Math.max(...values),
  };
}

/** Each name's figure over the rounds, in round order; a round without it, or with NaN, is left out. */
function spreads(rounds: ReadonlyArray<Record<string, number>>): Record<string, Spread> {
  const names = [...new Set(rounds.flatMap((round) => Object.keys(round)))];
  return Object.fromEntries(
    names.map((name) => [
      name,
      spreadOf(
        rounds
          .map((round) => round[name])
          .filter((value): value is number => value !== undefined && !Number.isNaN(value)),
      ),
    ]),
  );
}

/**
 * The figures of repeated runs of one benchmark. On a shared machine one run's ratio moves a lot
 * from run to run (other tenants, CPU frequency: packages/bench/README.md#the-harness); the
 * median of several, with its range, is the figure to quote. A round whose ratio is NaN (a ratio
 * to nothing) leaves it out.
 */
export function summariseRounds(reports: readonly BenchReport[]): RoundsSummary {
  const first = reports[0];
  if (!first) throw new Error('no rounds to summarise');
  const perTarget = (figure: (report: BenchReport['targets'][number]) => number) =>
    spreads(
      reports.map((report) => Object.fromEntries(report.targets.map((target) => [target.target, figure(target)]))),
    );
  return {
    benchmark: first.benchmark,
    rounds: reports.length,
    ratios: spreads(reports.map((report) => report.ratios)),
    requestsPerSecond: perTarget(({ measurement }) => measurement.requestsPerSecond),
    p99Ms: perTarget(({ measurement }) => measurement.latencyMs.p99),
  };
}

const inDigits = (digits: number) => (value: number) => (Number.isNaN(value) ? 'n/a' : value.toFixed(digits));

function spreadLines(spreadsByName: Record<string, Spread>, suffix: string, digits: number): string[] {
  const fixed = inDigits(digits);
  return Object.entries(spreadsByName).map(
    ([name, { values, median: middle, min, max }]) =>
      `${name}${suffix}: median ${fixed(middle)} (min ${fixed(min)}, max ${fixed(max)}; ${values.map(fixed).join(' ')})`,
  );
}

/** `<figure>: median M (min a, max b; v1 v2 …)`: each ratio, then each target's p99 and req/s. */
export function formatRoundsSummary(summary: RoundsSummary): string {
  return [
    `${summary.benchmark}: ${summary.rounds} rounds`,
    ...spreadLines(summary.ratios, '', 3),
    ...spreadLines(summary.p99Ms, ' p99 ms', 2),
    ...spreadLines(summary.requestsPerSecond, ' req/s', 0),
  ].join('\n');
}
