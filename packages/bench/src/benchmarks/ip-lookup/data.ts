/**
 * Deterministic synthetic ban lists and queries. The generator is mulberry32 (32-bit integer
 * arithmetic through Math.imul): a float LCG loses its low bits and repeats addresses.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

export type Random = () => number;

function ipv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 0xff}.${(value >>> 8) & 0xff}.${value & 0xff}`;
}

/** Inside 2000::/4 (global unicast), written uncompressed as operators paste them. */
function ipv6(random: Random): string {
  const groups: string[] = [];
  for (let i = 0; i < 8; i++) groups.push((i === 0 ? 0x2000 | (random() & 0x0fff) : random() & 0xffff).toString(16));
  return groups.join(':');
}

export interface BanTexts {
  singles: string[];
  ranges: string[];
}

/** 10 % IPv6. IPv4 ranges /16../30 (mostly narrow, as real lists), IPv6 /32../64. */
export function banTexts(random: Random, singles: number, ranges: number): BanTexts {
  const singleTexts: string[] = [];
  for (let i = 0; i < singles; i++) singleTexts.push(i % 10 === 9 ? ipv6(random) : ipv4(random()));
  const rangeTexts: string[] = [];
  for (let i = 0; i < ranges; i++) {
    rangeTexts.push(
      i % 10 === 9 ? `${ipv6(random)}/${32 + (random() % 33)}` : `${ipv4(random())}/${16 + (random() % 15)}`,
    );
  }
  return { singles: singleTexts, ranges: rangeTexts };
}

/**
 * Client addresses to look up: a third banned singles (exact hits), a third random addresses
 * of the same families (mostly misses, some inside ranges), a third the first address of a
 * banned range (range hits).
 */
export function queryTexts(random: Random, bans: BanTexts, count: number): string[] {
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 3;
    if (kind === 0) queries.push(bans.singles[random() % bans.singles.length]!);
    else if (kind === 1) queries.push(i % 30 === 1 ? ipv6(random) : ipv4(random()));
    else queries.push(bans.ranges[random() % bans.ranges.length]!.split('/')[0]!);
  }
  return queries;
}
