/** What one slice of load measured on one gateway. */
export interface Slice {
  cpuMsPerRequest: number;
  requestsPerSecond: number;
}

/**
 * The order the variants run in round `round`: forward in even rounds, backward in odd ones.
 * The first slice of a round ran about 5% cheaper than the others (the machine idled while the
 * previous round's figures were read), so no variant may always come first.
 */
export function roundOrder(variants: number, round: number): number[] {
  const order = Array.from({ length: variants }, (_, index) => index);
  return round % 2 === 0 ? order : order.reverse();
}

/**
 * Slices of load, variant after variant, round after round (roundOrder): each variant's
 * slices are spread over the whole run, so a machine that slows down or speeds up meanwhile
 * weighs on every variant alike. Returns the slices of each variant, in the order they ran.
 */
export async function alternate(variants: number, rounds: number, measureSlice: (variant: number) => Promise<Slice>): Promise<Slice[][]> {
  const slices: Slice[][] = Array.from({ length: variants }, () => []);
  for (let round = 0; round < rounds; round++) {
    for (const variant of roundOrder(variants, round)) slices[variant]!.push(await measureSlice(variant));
  }
  return slices;
}
