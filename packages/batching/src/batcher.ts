export interface BatcherOptions {
  /** Items one call of `run` takes at most. */
  maxBatch: number;
  /** Calls of `run` running at once; items arriving meanwhile wait for the next batch. */
  maxInFlight: number;
  /**
   * Says a failed batch failed for one of its items (a bad row: `isRowError` of
   * @switchboard/db), so its items are run again one by one. Default: never.
   */
  isItemError?: (error: unknown) => boolean;
}

interface Waiting<In, Out> {
  item: In;
  resolve(value: Out): void;
  reject(reason: unknown): void;
}

/**
 * Gathers the items asked for while the event loop handles one round of I/O (every request
 * whose body finished arriving, every job whose reply came back) and hands them to `run`
 * together, so N concurrent callers cost one round trip (one database commit, one Redis
 * script) instead of N. Nothing waits on a timer: a lone item runs at the end of its own
 * round; while `maxInFlight` runs are out, items gather for the next one. `run` answers in the
 * order of its items. When a batch fails for one of its items (`isItemError`), its items are
 * run again one by one, so an item fails only with an error of its own (a bad row, not its
 * neighbour's); `run` must therefore be safe to repeat for the items of a failed call. Any other
 * failure (a timeout, a lost connection) fails every item at once: replaying a hundred single
 * statements against a struggling database would only multiply its load.
 */
export function createBatcher<In, Out>(
  run: (items: In[]) => Promise<Out[]>,
  options: BatcherOptions,
): (item: In) => Promise<Out> {
  const isItemError = options.isItemError ?? (() => false);
  let waiting: Waiting<In, Out>[] = [];
  let inFlight = 0;
  let scheduled = false;

  const settle = (batch: Waiting<In, Out>[], results: Out[]) => {
    if (results.length !== batch.length) throw new Error(`batch of ${batch.length} answered ${results.length} results`);
    for (const [index, entry] of batch.entries()) entry.resolve(results[index]!);
  };

  async function runBatch(batch: Waiting<In, Out>[]): Promise<void> {
    try {
      settle(batch, await run(batch.map((entry) => entry.item)));
    } catch (error) {
      if (batch.length === 1 || !isItemError(error)) {
        for (const entry of batch) entry.reject(error);
        return;
      }
      // One item's failure must not fail the others: each runs again on its own.
      await Promise.all(batch.map((entry) => runBatch([entry])));
    }
  }

  const flush = () => {
    scheduled = false;
    while (inFlight < options.maxInFlight && waiting.length > 0) {
      const batch = waiting.slice(0, options.maxBatch);
      waiting = waiting.slice(batch.length);
      inFlight += 1;
      void runBatch(batch).finally(() => {
        inFlight -= 1;
        schedule();
      });
    }
  };

  function schedule(): void {
    if (scheduled || waiting.length === 0) return;
    scheduled = true;
    setImmediate(flush);
  }

  return (item) =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      schedule();
    });
}
