const seeded = new Map<string, Promise<unknown>>();

/**
 * `seed()` run once per benchmark and database, its result shared: the rounds of one run share
 * the run's database, so data a benchmark only reads is seeded once and every round reads the
 * same (a second seed would double it, or clash with the first on its unique names and keys).
 * A seed that failed is tried again by the next round.
 */
export function seedOnce<T>(benchmark: string, databaseUrl: string, seed: () => Promise<T>): Promise<T> {
  const key = `${benchmark} ${databaseUrl}`;
  let result = seeded.get(key) as Promise<T> | undefined;
  if (!result) {
    result = seed();
    seeded.set(key, result);
    result.catch(() => seeded.delete(key));
  }
  return result;
}
