import { STEP_SIZE, type Steps } from './stepwise.ts';

/** Elements sorted natively (in one go, well under a millisecond) before merging in steps. */
const RUN = 2_048;

/**
 * Sorts `order` (row numbers) by `compare` in steps: runs sorted natively, then merged bottom
 * up, stopping every few thousand elements to resume later (a native sort of the whole cannot).
 * Returns the sorted row numbers (in `order` or in a second buffer of the same length).
 */
export function* sortSteps(order: Int32Array, compare: (a: number, b: number) => number): Steps<Int32Array> {
  const n = order.length;
  for (let lo = 0; lo < n; lo += RUN) {
    order.subarray(lo, Math.min(lo + RUN, n)).sort(compare);
    yield;
  }
  let from: Int32Array = order;
  let to: Int32Array = new Int32Array(n);
  let work = 0;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        to[k] = i < mid && (j >= hi || compare(from[i]!, from[j]!) <= 0) ? from[i++]! : from[j++]!;
        if (++work === STEP_SIZE) {
          work = 0;
          yield;
        }
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
