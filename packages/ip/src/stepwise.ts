import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Work split into steps: a generator that yields between small units of work (well under a
 * millisecond each) and returns its result. The same steps run to the end at once for small
 * inputs, or in time slices that give the event loop back in between for large ones.
 */
export type Steps<T> = Generator<void, T, void>;

/** How many elements a step handles before it yields. */
export const STEP_SIZE = 4_096;

export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * Runs `steps` in slices of about `sliceMs` milliseconds, yielding to the event loop
 * (setImmediate: pending I/O and timers run first) between slices, so that no slice holds the
 * thread much longer than `sliceMs` plus one step.
 */
export async function runInSlices<T>(steps: Steps<T>, sliceMs = 8): Promise<T> {
  let deadline = performance.now() + sliceMs;
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() >= deadline) {
      await nextTurn();
      deadline = performance.now() + sliceMs;
    }
  }
}
