import { describe, expect, it } from 'vitest';
import { BodySupply } from '../src/benchmarks/system/operations.ts';
import { holdCapacity, searchCapacity } from '../src/benchmarks/system/search.ts';
import type { StepResult } from '../src/benchmarks/system/step.ts';

/** A step at `rate` that holds when `holds(rate)`; nothing else of it is read by the search. */
function step(rate: number, holds: (rate: number) => boolean): StepResult {
  return {
    totalRate: rate,
    seconds: 1,
    measurement: { lanes: {}, groups: {}, generatorCpu: 0 },
    samples: [],
    verdict: { passed: holds(rate), reasons: holds(rate) ? [] : ['too slow'] },
  };
}

/** A tryRate that answers step(rate, holds) and remembers every rate it was asked for. */
function recordingSteps(holds: (rate: number) => boolean): {
  tried: number[];
  tryRate: (rate: number) => Promise<StepResult>;
} {
  const tried: number[] = [];
  return {
    tried,
    tryRate: async (rate) => {
      tried.push(rate);
      return step(rate, holds);
    },
  };
}

describe('the system benchmark', () => {
  it('doubles until a rate fails, then bisects to within the precision', async () => {
    const { tried, tryRate } = recordingSteps((rate) => rate <= 1_234);
    const result = await searchCapacity(tryRate, {
      startRate: 100,
      maxDoublings: 8,
      maxBisections: 6,
      precision: 0.05,
    });
    expect(tried.slice(0, 5)).toEqual([100, 200, 400, 800, 1600]);
    expect(result.maxRate).toBeLessThanOrEqual(1_234);
    expect(result.failedAt).toBeGreaterThan(1_234);
    expect((result.failedAt! - result.maxRate) / result.failedAt!).toBeLessThanOrEqual(0.05);
    expect(result.steps.map((s) => s.totalRate)).toEqual(tried);
  });

  it('answers 0 when not even the start rate holds, and stops doubling at its bound', async () => {
    const none = await searchCapacity(async (rate) => step(rate, () => false), {
      startRate: 100,
      maxDoublings: 8,
      maxBisections: 2,
      precision: 0.1,
    });
    expect(none.maxRate).toBe(0);
    expect(none.steps.map((s) => s.totalRate)).toEqual([100, 50, 25]);
    const all = await searchCapacity(async (rate) => step(rate, () => true), {
      startRate: 100,
      maxDoublings: 3,
      maxBisections: 2,
      precision: 0.1,
    });
    expect(all.maxRate).toBe(800);
    expect(all.failedAt).toBeUndefined();
  });

  it('steps a failing capacity run down until one holds, within its bound', async () => {
    const { tried, tryRate } = recordingSteps((rate) => rate <= 500);
    const found = await holdCapacity(tryRate, 800, { attempts: 3, stepDown: 0.75 });
    expect(tried).toEqual([800, 600, 450]);
    expect(found.held?.totalRate).toBe(450);
    expect(found.runs.map((run) => run.verdict.passed)).toEqual([false, false, true]);
    const never = await holdCapacity(async (rate) => step(rate, () => false), 800, { attempts: 2, stepDown: 0.5 });
    expect(never.held).toBeUndefined();
    expect(never.runs.map((run) => run.totalRate)).toEqual([800, 400]);
  });

  it('hands out each seeded body once, in order, then wraps and says so', () => {
    const supply = new BodySupply(['a', 'b', 'c']);
    expect(supply.take(2)).toEqual(['a', 'b']);
    expect(supply.wrapped).toBe(0);
    expect(supply.take(3)).toEqual(['c', 'a', 'b']);
    expect(supply.wrapped).toBe(1);
  });
});
