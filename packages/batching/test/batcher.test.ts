import { describe, expect, it } from 'vitest';
import { createBatcher } from '../src/index.ts';

/** A run that records each batch and answers once released. */
function recordingRun() {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  const run = async (items: number[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => releases.push(resolve));
    return items.map((item) => item * 10);
  };
  return { batches, releases, run };
}

const nextRound = () => new Promise((resolve) => setImmediate(resolve));

describe('createBatcher', () => {
  it('runs the items asked for in one round together and answers each in order', async () => {
    const { batches, releases, run } = recordingRun();
    const call = createBatcher(run, { maxBatch: 10, maxInFlight: 2 });
    const answers = Promise.all([call(1), call(2), call(3)]);
    await nextRound();
    expect(batches).toEqual([[1, 2, 3]]);
    for (const release of releases) release();
    expect(await answers).toEqual([10, 20, 30]);
  });

  it('keeps at most maxInFlight runs out and at most maxBatch items in each; the rest wait for the next', async () => {
    const { batches, releases, run } = recordingRun();
    const call = createBatcher(run, { maxBatch: 2, maxInFlight: 2 });
    const answers = Promise.all([1, 2, 3, 4, 5, 6].map((item) => call(item)));
    await nextRound();
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    releases.shift()!();
    await nextRound();
    await nextRound();
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    for (const release of releases) release();
    expect(await answers).toEqual([10, 20, 30, 40, 50, 60]);
  });

  /** A run that fails any batch holding 'bad' with `error`, recording every batch. */
  function failingRun(error: Error) {
    const runs: string[][] = [];
    const run = async (items: string[]) => {
      runs.push(items);
      if (items.includes('bad')) throw error;
      return items.map((item) => item.toUpperCase());
    };
    return { runs, run };
  }

  it('runs the items of a batch that failed for one of its items (isItemError) again one by one, so only the item at fault fails', async () => {
    const checkViolation = Object.assign(new Error('violates check constraint'), { code: '23514' });
    const { runs, run } = failingRun(checkViolation);
    const isItemError = (error: unknown) => (error as { code?: string }).code === '23514';
    const call = createBatcher(run, { maxBatch: 10, maxInFlight: 1, isItemError });
    const answers = await Promise.allSettled([call('bad'), call('neighbour')]);
    expect(answers).toEqual([
      { status: 'rejected', reason: checkViolation },
      { status: 'fulfilled', value: 'NEIGHBOUR' },
    ]);
    expect(runs).toEqual([['bad', 'neighbour'], ['bad'], ['neighbour']]);
    expect(await call('later')).toBe('LATER');
  });

  it('fails every item of a batch that failed for another reason at once, without replaying them', async () => {
    const timeout = new Error('Query read timeout');
    const { runs, run } = failingRun(timeout);
    const call = createBatcher(run, { maxBatch: 10, maxInFlight: 1 });
    const answers = await Promise.allSettled([call('bad'), call('neighbour'), call('third')]);
    expect(answers.map((answer) => answer.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(runs).toEqual([['bad', 'neighbour', 'third']]);
    expect(await call('later')).toBe('LATER');
  });

  it('fails an item whose run answers a result count other than its item count', async () => {
    const call = createBatcher(async (items: number[]) => items.slice(1), { maxBatch: 10, maxInFlight: 1 });
    await expect(call(1)).rejects.toThrow('batch of 1 answered 0 results');
  });
});
