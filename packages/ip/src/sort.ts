import { STEP_SIZE, type Steps } from './stepwise.ts';

/** Elements sorted by insertion before merging: fewer merge passes, cheap on short runs. */
const RUN = 32;

function insertionSort(order: Int32Array, from: number, to: number, compare: (a: number, b: number) => number): void {
  for (let i = from + 1; i < to; i++) {
    const item = order[i]!;
    let j = i - 1;
    while (j >= from && compare(order[j]!, item) > 0) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = item;
  }
}

/**
 * Sorts `order` (row numbers) by `compare` in steps: a stable bottom-up merge sort, which,
 * unlike Array.prototype.sort, can stop every few thousand elements and resume. Returns the
 * sorted row numbers (in `order` or in a second buffer of the same length).
 */
export function* sortSteps(order: Int32Array, compare: (a: number, b: number) => number): Steps<Int32Array> {
  const n = order.length;
  for (let lo = 0; lo < n; lo += RUN) {
    insertionSort(order, lo, Math.min(lo + RUN, n), compare);
    if (lo % STEP_SIZE === 0) yield;
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
