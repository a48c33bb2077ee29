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

/**
 * Where each run of entries sharing the top `bits` bits of their first address word begins:
 * `firsts[b]` is the position of the first entry whose top bits are ≥ b, and
 * `firsts[2^bits]` the table's count. A lookup then searches one run, a few entries, rather
 * than the whole table: a binary search over a million entries spends most of its time on
 * memory the caches do not hold (packages/bench/README.md#ip-ban-lookups).
 */
interface Directory {
  shift: number;
  firsts: Int32Array;
}

/** About sixteen entries a run, at most 2¹⁶ runs (256 KiB), at least two. */
function directoryOf(table: EntryTable): Directory {
  const bits = Math.min(16, Math.max(1, Math.ceil(Math.log2(Math.max(1, table.count))) - 4));
  const shift = 32 - bits;
  const runs = 1 << bits;
  const firsts = new Int32Array(runs + 1);
  const { starts, width, count } = table;
  let position = 0;
  for (let run = 0; run < runs; run++) {
    while (position < count && starts[position * width]! >>> shift < run) position++;
    firsts[run] = position;
  }
  firsts[runs] = count;
  return { shift, firsts };
}

/**
 * Position of the last start ≤ `key` in a table, or -1. Entries before the key's run start
 * lower and those after it higher, so only the run is searched.
 */
function lastAtOrBefore(table: EntryTable, directory: Directory, key: Uint32Array): number {
  const { starts, width } = table;
  const run = key[0]! >>> directory.shift;
  let low = directory.firsts[run]!;
  let high = directory.firsts[run + 1]! - 1;
  let found = low - 1;
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
  private readonly directories: readonly Directory[];

  constructor(tables: EntryTables) {
    this.tables = tables;
    this.directories = tables.map(directoryOf);
  }

  get size(): number {
    return this.tables.reduce((sum, table) => sum + table.count, 0);
  }

  /** Bytes held in typed arrays (single addresses share one array for starts and ends), directories included. */
  get byteLength(): number {
    const directories = this.directories.reduce((sum, { firsts }) => sum + firsts.byteLength, 0);
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
    }, directories);
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
        let i = lastAtOrBefore(singles, this.directories[first]!, start);
        i >= 0 && compareWords(singles.starts, i * width, start, 0, width) === 0;
        i--
      ) {
        if (singles.expires[i]! > nowMs && !this.isHidden(i * 4 + first, hidden)) return i * 4 + first;
      }
    }
    const ranges = this.tables[first + 1]!;
    for (let i = lastAtOrBefore(ranges, this.directories[first + 1]!, start); i >= 0; i = ranges.parents[i]!) {
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
