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
    releases.forEach((release) => release());
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
    releases.forEach((release) => release());
    expect(await answers).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it('fails exactly the items of a failed run', async () => {
    let runs = 0;
    const call = createBatcher(
      async (items: string[]) => {
        runs += 1;
        if (items.includes('bad')) throw new Error('statement failed');
        return items.map((item) => item.toUpperCase());
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const failed = [call('bad'), call('unlucky')];
    await expect(Promise.all(failed)).rejects.toThrow('statement failed');
    await expect(failed[1]).rejects.toThrow('statement failed');
    expect(await call('fine')).toBe('FINE');
    expect(runs).toBe(2);
  });

  it('fails a batch whose run answers a result count other than its item count', async () => {
    const call = createBatcher(async (items: number[]) => items.slice(1), { maxBatch: 10, maxInFlight: 1 });
    await expect(Promise.all([call(1), call(2)])).rejects.toThrow('batch of 2 answered 1 results');
  });
});
