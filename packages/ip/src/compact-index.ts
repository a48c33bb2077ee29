import type { IpFamily, IpNetwork } from './parse.ts';
import {
  compareWords,
  formatNetworkWords,
  networkFromWords,
  widthOf,
  writeBigintWords,
  type AddressWidth,
} from './words.ts';

/**
 * The columns of one kind of entry (single addresses, or ranges) of one family, in address
 * order (ranges: by start, wider first on ties). Entry `i`'s start is `starts[i·width…]`.
 */
export interface EntryTable {
  width: AddressWidth;
  count: number;
  starts: Uint32Array;
  /** Last addresses; for single addresses the very array of the starts. */
  ends: Uint32Array;
  prefixes: Uint8Array;
  /** Ranges: the nearest range containing this one, or -1; single addresses: empty. */
  parents: Int32Array;
  /** Epoch milliseconds; Infinity for an entry that never expires. */
  expires: Float64Array;
  /** The caller's number for each entry (e.g. its row in a table of metadata). */
  tags: Int32Array;
}

/** Tables in slot order: a slot is `position · 4 + table`. */
export type EntryTables = readonly [
  v4Singles: EntryTable,
  v4Ranges: EntryTable,
  v6Singles: EntryTable,
  v6Ranges: EntryTable,
];

const QUERY_START = new Uint32Array(4);
const QUERY_END = new Uint32Array(4);

/** Position of the last start ≤ `key` in a table, or -1. */
function lastAtOrBefore(table: EntryTable, key: Uint32Array): number {
  const { starts, width } = table;
  let low = 0;
  let high = table.count - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (compareWords(starts, mid * width, key, 0, width) <= 0) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/**
 * An immutable lookup structure over IP networks with expiry times, held in typed arrays (a
 * few tens of bytes per entry, no object per entry): single addresses sorted for binary
 * search, ranges sorted by start with a link to the nearest range containing them. CIDR ranges
 * nest or are disjoint, so the ranges that contain an address form one chain, reached from the
 * last range starting at or before it. Answers are slots, read back with the accessors.
 */
export class CompactIpIndex {
  private readonly tables: EntryTables;

  constructor(tables: EntryTables) {
    this.tables = tables;
  }

  get size(): number {
    return this.tables.reduce((sum, table) => sum + table.count, 0);
  }

  /** Bytes held in typed arrays (single addresses share one array for starts and ends). */
  get byteLength(): number {
    return this.tables.reduce((sum, { starts, ends, prefixes, parents, expires, tags }) => {
      const endBytes = ends === starts ? 0 : ends.byteLength;
      return (
        sum +
        starts.byteLength +
        endBytes +
        prefixes.byteLength +
        parents.byteLength +
        expires.byteLength +
        tags.byteLength
      );
    }, 0);
  }

  /**
   * The slot of the most specific live entry covering all of `query` (an exact single address
   * first, then the narrowest range), skipping entries whose canonical text is in `hidden`;
   * -1 when none.
   */
  find(query: IpNetwork, nowMs: number, hidden?: ReadonlySet<string>): number {
    const width = widthOf(query.family);
    writeBigintWords(query.start, width, QUERY_START);
    writeBigintWords(query.end, width, QUERY_END);
    return this.findWords(
      query.family,
      QUERY_START,
      QUERY_END,
      nowMs,
      hidden !== undefined && hidden.size > 0 ? hidden : undefined,
    );
  }

  private findWords(
    family: IpFamily,
    start: Uint32Array,
    end: Uint32Array,
    nowMs: number,
    hidden: ReadonlySet<string> | undefined,
  ): number {
    const first = family === 4 ? 0 : 2;
    const singles = this.tables[first];
    const width = singles.width;
    if (compareWords(start, 0, end, 0, width) === 0) {
      // Equal starts can repeat (a network stored twice, e.g. also as IPv4-mapped IPv6).
      for (
        let i = lastAtOrBefore(singles, start);
        i >= 0 && compareWords(singles.starts, i * width, start, 0, width) === 0;
        i--
      ) {
        if (singles.expires[i]! > nowMs && !this.isHidden(i * 4 + first, hidden)) return i * 4 + first;
      }
    }
    const ranges = this.tables[first + 1]!;
    for (let i = lastAtOrBefore(ranges, start); i >= 0; i = ranges.parents[i]!) {
      if (
        compareWords(ranges.ends, i * width, end, 0, width) >= 0 &&
        ranges.expires[i]! > nowMs &&
        !this.isHidden(i * 4 + first + 1, hidden)
      ) {
        return i * 4 + first + 1;
      }
    }
    return -1;
  }

  private isHidden(slot: number, hidden: ReadonlySet<string> | undefined): boolean {
    return hidden?.has(this.canonical(slot)) ?? false;
  }

  private table(slot: number): EntryTable {
    return this.tables[slot & 3]!;
  }

  /** The caller's tag of the entry in `slot`. */
  tag(slot: number): number {
    return this.table(slot).tags[slot >>> 2]!;
  }

  /** Epoch milliseconds, or null for an entry that never expires. */
  expiresAtMs(slot: number): number | null {
    const expires = this.table(slot).expires[slot >>> 2]!;
    return expires === Infinity ? null : expires;
  }

  canonical(slot: number): string {
    const table = this.table(slot);
    const position = slot >>> 2;
    return formatNetworkWords(table.starts, position * table.width, table.width, table.prefixes[position]!);
  }

  /** The entry's network in the parser's bigint form (allocates: for answers, not for hot paths). */
  network(slot: number): IpNetwork {
    const table = this.table(slot);
    const position = slot >>> 2;
    return networkFromWords(table.starts, position * table.width, table.width, table.prefixes[position]!);
  }
}
