import type { IpFamily, IpNetwork } from './parse.ts';

export interface IndexedEntry {
  network: IpNetwork;
  /** Milliseconds since the epoch, or null for a ban that never expires. */
  expiresAtMs: number | null;
}

const UNSET = -1;

/**
 * The entries of one address family, laid out for binary search: single addresses sorted by
 * value, ranges sorted by start (wider first on ties) with a parent link to the nearest range
 * that contains them. CIDR ranges are either nested or disjoint, so the ranges that contain an
 * address form one chain, reached from the last range starting at or before it.
 */
class FamilyIndex<T extends IndexedEntry> {
  private readonly singles: T[];
  private readonly singleKeys: bigint[];
  private readonly ranges: T[];
  private readonly rangeStarts: bigint[];
  private readonly parents: Int32Array;

  constructor(entries: T[]) {
    const singles = entries.filter((entry) => entry.network.start === entry.network.end);
    singles.sort((a, b) => compare(a.network.start, b.network.start));
    this.singles = singles;
    this.singleKeys = singles.map((entry) => entry.network.start);

    const ranges = entries.filter((entry) => entry.network.start !== entry.network.end);
    ranges.sort((a, b) => compare(a.network.start, b.network.start) || a.network.prefix - b.network.prefix);
    this.ranges = ranges;
    this.rangeStarts = ranges.map((entry) => entry.network.start);
    this.parents = new Int32Array(ranges.length).fill(UNSET);
    const open: number[] = [];
    ranges.forEach((entry, i) => {
      while (open.length > 0 && ranges[open[open.length - 1]!]!.network.end < entry.network.start) open.pop();
      if (open.length > 0) this.parents[i] = open[open.length - 1]!;
      open.push(i);
    });
  }

  get size(): number {
    return this.singles.length + this.ranges.length;
  }

  /** The most specific live entry covering [start, end], or null. */
  covering(start: bigint, end: bigint, nowMs: number): T | null {
    if (start === end) {
      const at = lastAtOrBefore(this.singleKeys, start);
      const single = at >= 0 && this.singleKeys[at] === start ? this.singles[at]! : null;
      if (single && isLive(single, nowMs)) return single;
    }
    for (let i = lastAtOrBefore(this.rangeStarts, start); i !== UNSET && i >= 0; i = this.parents[i]!) {
      const range = this.ranges[i]!;
      if (range.network.end >= end && isLive(range, nowMs)) return range;
    }
    return null;
  }
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isLive(entry: IndexedEntry, nowMs: number): boolean {
  return entry.expiresAtMs === null || entry.expiresAtMs > nowMs;
}

/** Index of the last key ≤ value in an ascending array, or -1. */
function lastAtOrBefore(keys: bigint[], value: bigint): number {
  let low = 0;
  let high = keys.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (keys[mid]! <= value) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/** An immutable lookup structure over IP ban entries of both families. */
export class IpIndex<T extends IndexedEntry> {
  private readonly families: Record<IpFamily, FamilyIndex<T>>;

  constructor(entries: Iterable<T>) {
    const v4: T[] = [];
    const v6: T[] = [];
    for (const entry of entries) (entry.network.family === 4 ? v4 : v6).push(entry);
    this.families = { 4: new FamilyIndex(v4), 6: new FamilyIndex(v6) };
  }

  get size(): number {
    return this.families[4].size + this.families[6].size;
  }

  /**
   * The most specific live entry that covers the whole of `query` (an address or a range):
   * an exact single-address entry first, then the narrowest covering range.
   */
  match(query: IpNetwork, nowMs = Date.now()): T | null {
    return this.families[query.family].covering(query.start, query.end, nowMs);
  }
}
