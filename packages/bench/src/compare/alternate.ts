/** What one slice of load measured on one gateway. */
export interface Slice {
  cpuMsPerRequest: number;
  /** Every core's CPU per request meanwhile: the gateway's, the load generator's, PostgreSQL's, Redis's. */
  machineMsPerRequest: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * The order the variants run in round `round`: rotated by one every second round and reversed
 * in odd ones, so over 2 × n rounds each of n variants runs in every position equally often
 * and after different neighbours. Position matters: the first slice of a round ran cheaper than
 * the others, and with three variants and reversal alone the middle one never ran first or last,
 * which set two copies of one build apart (packages/bench/README.md#the-harness).
 */
export function roundOrder(variants: number, round: number): number[] {
  const shift = Math.floor(round / 2) % Math.max(1, variants);
  const order = Array.from({ length: variants }, (_, index) => (index + shift) % variants);
  return round % 2 === 0 ? order : order.reverse();
}

/**
 * Slices of load, variant after variant, round after round (roundOrder): each variant's
 * slices are spread over the whole run, so a machine that slows down or speeds up meanwhile
 * weighs on every variant alike. Returns the slices of each variant, in the order they ran.
 */
export async function alternate(
  variants: number,
  rounds: number,
  measureSlice: (variant: number) => Promise<Slice>,
): Promise<Slice[][]> {
  const slices: Slice[][] = Array.from({ length: variants }, () => []);
  for (let round = 0; round < rounds; round++) {
    for (const variant of roundOrder(variants, round)) slices[variant]!.push(await measureSlice(variant));
  }
  return slices;
}
