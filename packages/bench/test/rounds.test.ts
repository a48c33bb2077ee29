import { describe, expect, it } from 'vitest';
import type { Measurement } from '../src/measure.ts';
import { formatRoundsSummary, median, summariseRounds } from '../src/rounds.ts';
import type { BenchReport } from '../src/types.ts';

function measured(requestsPerSecond: number, p99: number): Measurement {
  return {
    requestsPerSecond,
    latencyMs: { p50: p99 / 2, p90: p99, p99, mean: p99 / 2, max: p99 },
    requests: requestsPerSecond * 10,
    non2xx: 0,
    statusCodes: { '200': requestsPerSecond * 10 },
    errors: 0,
    timeouts: 0,
    bytesPerSecond: 0,
    durationSeconds: 10,
  };
}

function report(ratios: Record<string, number>, targets: Array<[string, number, number]> = []): BenchReport {
  return {
    benchmark: 'ban-check',
    notes: [],
    targets: targets.map(([target, rps, p99]) => ({
      target,
      url: 'http://127.0.0.1/',
      measurement: measured(rps, p99),
    })),
    ratios,
  };
}

describe('bench rounds', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([0.5, 0.3, 0.4])).toBe(0.4);
    expect(median([0.6, 0.3, 0.5, 0.4])).toBeCloseTo(0.45, 10);
    expect(median([])).toBeNaN();
  });

  it('summarises each ratio over the rounds: values in round order, median, range', () => {
    const summary = summariseRounds([
      report({ rps: 0.43, p99: 2 }),
      report({ rps: 0.55, p99: 3.25 }),
      report({ rps: 0.37, p99: 2.5 }),
    ]);
    expect(summary.benchmark).toBe('ban-check');
    expect(summary.rounds).toBe(3);
    expect(summary.ratios['rps']).toEqual({ values: [0.43, 0.55, 0.37], median: 0.43, min: 0.37, max: 0.55 });
    expect(summary.ratios['p99']).toEqual({ values: [2, 3.25, 2.5], median: 2.5, min: 2, max: 3.25 });
  });

  it("summarises each target's req/s and p99 too: all a latency benchmark without ratios reports", () => {
    const summary = summariseRounds([
      report({}, [['accepted → stored', 1000, 103]]),
      report({}, [['accepted → stored', 1000, 44]]),
    ]);
    expect(summary.p99Ms['accepted → stored']).toEqual({ values: [103, 44], median: 73.5, min: 44, max: 103 });
    expect(summary.requestsPerSecond['accepted → stored']?.median).toBe(1000);
    expect(formatRoundsSummary(summary)).toBe(
      [
        'ban-check: 2 rounds',
        'accepted → stored p99 ms: median 73.50 (min 44.00, max 103.00; 103.00 44.00)',
        'accepted → stored req/s: median 1000 (min 1000, max 1000; 1000 1000)',
      ].join('\n'),
    );
  });

  it('leaves out a round whose ratio was to nothing, and a ratio no round had stays n/a', () => {
    const summary = summariseRounds([
      report({ rps: Number.NaN, cpu: Number.NaN }),
      report({ rps: 0.5, cpu: Number.NaN }),
    ]);
    expect(summary.ratios['rps']).toEqual({ values: [0.5], median: 0.5, min: 0.5, max: 0.5 });
    expect(formatRoundsSummary(summary)).toBe(
      [
        'ban-check: 2 rounds',
        'rps: median 0.500 (min 0.500, max 0.500; 0.500)',
        'cpu: median n/a (min n/a, max n/a; )',
      ].join('\n'),
    );
  });

  it('refuses to summarise no rounds at all', () => {
    expect(() => summariseRounds([])).toThrow(/no rounds/);
  });
});
