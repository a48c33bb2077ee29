import type { BenchReport } from './types.ts';

/** One ratio over every round of a benchmark: its value each round, in order, and their spread. */
export interface RatioOverRounds {
  values: number[];
  median: number;
  min: number;
  max: number;
}

export interface RoundsSummary {
  benchmark: string;
  rounds: number;
  ratios: Record<string, RatioOverRounds>;
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The ratios of repeated runs of one benchmark. On a shared machine one run's ratio moves by a
 * third from run to run (other tenants, CPU frequency); the median of several, with its range,
 * is the figure to quote. A round whose ratio is NaN (a ratio to nothing) leaves it out.
 */
export function summariseRounds(reports: readonly BenchReport[]): RoundsSummary {
  const first = reports[0];
  if (!first) throw new Error('no rounds to summarise');
  const names = [...new Set(reports.flatMap((report) => Object.keys(report.ratios)))];
  const ratios: Record<string, RatioOverRounds> = {};
  for (const name of names) {
    const values = reports.map((report) => report.ratios[name]).filter((value): value is number => value !== undefined && !Number.isNaN(value));
    ratios[name] = {
      values,
      median: median(values),
      min: values.length === 0 ? Number.NaN : Math.min(...values),
      max: values.length === 0 ? Number.NaN : Math.max(...values),
    };
  }
  return { benchmark: first.benchmark, rounds: reports.length, ratios };
}

const fixed = (value: number) => (Number.isNaN(value) ? 'n/a' : value.toFixed(3));

/** `<ratio>: median M (min a, max b; v1 v2 …)`, one line per ratio. */
export function formatRoundsSummary(summary: RoundsSummary): string {
  return [
    `${summary.benchmark}: ${summary.rounds} rounds`,
    ...Object.entries(summary.ratios).map(
      ([name, { values, median: middle, min, max }]) =>
        `${name}: median ${fixed(middle)} (min ${fixed(min)}, max ${fixed(max)}; ${values.map(fixed).join(' ')})`,
    ),
  ].join('\n');
}
