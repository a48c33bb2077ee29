import type { StepResult } from './step.ts';

export interface SearchOptions {
  startRate: number;
  /** Doublings at most before the first failing rate (a bound on the search, not a guess of the answer). */
  maxDoublings: number;
  /** Bisections at most between the highest passing and the lowest failing rate. */
  maxBisections: number;
  /** Stop bisecting once the bracket is this narrow, relative to its upper end. */
  precision: number;
}

export const DEFAULT_SEARCH: SearchOptions = { startRate: 100, maxDoublings: 8, maxBisections: 4, precision: 0.1 };

export interface SearchResult {
  /** Highest total rate that held (0: not even the start rate). */
  maxRate: number;
  /** Lowest rate that did not hold (undefined: none found within maxDoublings). */
  failedAt: number | undefined;
  steps: StepResult[];
}

/**
 * The largest total rate that holds (`tryRate`'s verdict): doubling from `startRate` until a
 * rate fails, then bisecting between the highest pass and the lowest failure. Each rate is one
 * short load; `tryRate` empties the queues before it answers.
 */
export async function searchCapacity(
  tryRate: (rate: number) => Promise<StepResult>,
  options: SearchOptions,
): Promise<SearchResult> {
  const steps: StepResult[] = [];
  const attempt = async (rate: number) => {
    const step = await tryRate(rate);
    steps.push(step);
    return step.verdict.passed;
  };
  let passed = 0;
  let failed: number | undefined;
  let rate = options.startRate;
  for (let doubling = 0; doubling <= options.maxDoublings && failed === undefined; doubling++) {
    if (await attempt(rate)) {
      passed = rate;
      rate *= 2;
    } else {
      failed = rate;
    }
  }
  for (let bisection = 0; bisection < options.maxBisections && failed !== undefined; bisection++) {
    if ((failed - passed) / failed <= options.precision) break;
    const middle = Math.round((passed + failed) / 2);
    if (await attempt(middle)) passed = middle;
    else failed = middle;
  }
  return { maxRate: passed, failedAt: failed, steps };
}

export interface CapacityOptions {
  /** Full-length runs at most: the first at the search's rate, each next one lower. */
  attempts: number;
  /** Each next run's rate as a share of the one that failed. */
  stepDown: number;
}

export const DEFAULT_CAPACITY: CapacityOptions = { attempts: 3, stepDown: 0.75 };

export interface CapacityResult {
  /** The run that held for its whole length, when one did. */
  held: StepResult | undefined;
  /** Every run, in order; the last is the held one when there is one. */
  runs: StepResult[];
}

/**
 * The rate a short search found, held for the full duration: a rate that held for a step can
 * fail over minutes (a slower archive, a collection landing in it), and the figure quoted for
 * planning must be one that held for the whole run, so a failing run steps down and runs again.
 */
export async function holdCapacity(
  tryRate: (rate: number) => Promise<StepResult>,
  firstRate: number,
  options: CapacityOptions,
): Promise<CapacityResult> {
  const runs: StepResult[] = [];
  let rate = firstRate;
  for (let attempt = 0; attempt < options.attempts && rate >= 1; attempt++) {
    const run = await tryRate(rate);
    runs.push(run);
    if (run.verdict.passed) return { held: run, runs };
    rate = Math.round(rate * options.stepDown);
  }
  return { held: undefined, runs };
}
