import { CompactIpIndex, type EntryTable } from './compact-index.ts';
import type { IpFamily, IpNetwork } from './parse.ts';
import { sortSteps } from './sort.ts';
import { runInSlices, runToEnd, STEP_SIZE, type Steps } from './stepwise.ts';
import { compareWords, hostBitsOfWord, widthOf, writeBigintWords, type AddressWidth } from './words.ts';

const INITIAL_CAPACITY = 64;

type Column = Uint32Array | Uint8Array | Float64Array | Int32Array;

/**
 * The column resized to `length` elements (zeros past the old end). Transferring frees the old
 * buffer at once: a copy would leave it for the next full collection, and a million entries'
 * columns outgrown on the way (and the capacity trimmed at the end) were, in an idle process,
 * as many megabytes resident as the index itself (packages/bench/README.md#gateway-memory).
 */
export function resized<T extends Column>(array: T, length: number): T {
  const Type = array.constructor as new (buffer: ArrayBuffer) => T;
  return new Type((array.buffer as ArrayBuffer).transfer(length * array.BYTES_PER_ELEMENT));
}

/** One table's columns as entries arrive; notes whether they arrived in order. */
class TableBuilder {
  readonly width: AddressWidth;
  private readonly ranges: boolean;
  count = 0;
  private sorted = true;
  private starts = new Uint32Array(0);
  private prefixes = new Uint8Array(0);
  private expires = new Float64Array(0);
  private tags = new Int32Array(0);

  constructor(width: AddressWidth, ranges: boolean) {
    this.width = width;
    this.ranges = ranges;
  }

  add(words: Uint32Array, prefix: number, expiresAtMs: number, tag: number): void {
    if (this.count === this.prefixes.length) this.grow(Math.max(INITIAL_CAPACITY, this.count * 2));
    const i = this.count++;
    const offset = i * this.width;
    for (let k = 0; k < this.width; k++) this.starts[offset + k] = (words[k]! & ~hostBitsOfWord(k, prefix)) >>> 0;
    this.prefixes[i] = prefix;
    this.expires[i] = expiresAtMs;
    this.tags[i] = tag;
    if (this.sorted && i > 0 && this.compare(i - 1, i) > 0) this.sorted = false;
  }

  private grow(capacity: number): void {
    this.starts = resized(this.starts, capacity * this.width);
    this.prefixes = resized(this.prefixes, capacity);
    this.expires = resized(this.expires, capacity);
    this.tags = resized(this.tags, capacity);
  }

  /** Address order; ranges starting together: the wider first (it contains the other). */
  private compare(a: number, b: number): number {
    return (
      compareWords(this.starts, a * this.width, this.starts, b * this.width, this.width) ||
      this.prefixes[a]! - this.prefixes[b]!
    );
  }

  /** The finished table: trimmed to size, sorted if entries came out of order, ranges linked. */
  *finish(): Steps<EntryTable> {
    const n = this.count;
    if (!this.sorted) {
      const identity = new Int32Array(n);
      for (let i = 0; i < n; i++) identity[i] = i;
      yield* this.reorder(yield* sortSteps(identity, (a, b) => this.compare(a, b)));
    }
    const starts = resized(this.starts, n * this.width);
    const prefixes = resized(this.prefixes, n);
    const expires = resized(this.expires, n);
    const tags = resized(this.tags, n);
    this.starts = new Uint32Array(0);
    this.prefixes = new Uint8Array(0);
    this.expires = new Float64Array(0);
    this.tags = new Int32Array(0);
    yield;
    const table: EntryTable = {
      width: this.width,
      count: n,
      starts,
      ends: starts,
      prefixes,
      parents: new Int32Array(0),
      expires,
      tags,
    };
    if (this.ranges) {
      table.ends = yield* endsOf(table);
      table.parents = yield* parentsOf(table);
    }
    return table;
  }

  /** Rewrites every column in `order`. */
  private *reorder(order: Int32Array): Steps<void> {
    const n = this.count;
    const width = this.width;
    const starts = new Uint32Array(n * width);
    const prefixes = new Uint8Array(n);
    const expires = new Float64Array(n);
    const tags = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const from = order[i]!;
      for (let k = 0; k < width; k++) starts[i * width + k] = this.starts[from * width + k]!;
      prefixes[i] = this.prefixes[from]!;
      expires[i] = this.expires[from]!;
      tags[i] = this.tags[from]!;
      if (i % STEP_SIZE === STEP_SIZE - 1) yield;
    }
    for (const column of [this.starts, this.prefixes, this.expires, this.tags]) resized(column, 0);
    this.starts = starts;
    this.prefixes = prefixes;
    this.expires = expires;
    this.tags = tags;
    this.sorted = true;
  }
}

function* endsOf(table: EntryTable): Steps<Uint32Array> {
  const { width, starts, prefixes } = table;
  const ends = new Uint32Array(starts.length);
  for (let i = 0; i < table.count; i++) {
    for (let k = 0; k < width; k++)
      ends[i * width + k] = (starts[i * width + k]! | hostBitsOfWord(k, prefixes[i]!)) >>> 0;
    if (i % STEP_SIZE === STEP_SIZE - 1) yield;
  }
  return ends;
}

/** The nearest enclosing range of each range: the open ranges form a stack in start order. */
function* parentsOf(table: EntryTable): Steps<Int32Array> {
  const { width, starts, ends } = table;
  const parents = new Int32Array(table.count).fill(-1);
  const open = new Int32Array(table.count);
  let depth = 0;
  for (let i = 0; i < table.count; i++) {
    while (depth > 0 && compareWords(ends, open[depth - 1]! * width, starts, i * width, width) < 0) depth--;
    if (depth > 0) parents[i] = open[depth - 1]!;
    open[depth++] = i;
    if (i % STEP_SIZE === STEP_SIZE - 1) yield;
  }
  return parents;
}

/**
 * Collects entries, then builds a CompactIpIndex. Entries in address order (as PostgreSQL
 * returns `cidr` in index order) are only copied; others are sorted first. The build runs at
 * once (`build`) or in time slices that leave the event loop free (`buildInSlices`).
 */
export class CompactIpIndexBuilder {
  private readonly tables = [
    new TableBuilder(1, false),
    new TableBuilder(1, true),
    new TableBuilder(4, false),
    new TableBuilder(4, true),
  ] as const;
  private readonly scratch = new Uint32Array(4);

  get size(): number {
    return this.tables.reduce((sum, table) => sum + table.count, 0);
  }

  /**
   * Adds a network given by its start address words (`words[0…]`, host bits are cleared here)
   * and prefix. `expiresAtMs` null: never expires. `tag` is returned by lookups (≥ 0).
   */
  addWords(family: IpFamily, words: Uint32Array, prefix: number, expiresAtMs: number | null, tag: number): void {
    const width = widthOf(family);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > width * 32)
      throw new RangeError(`prefix ${prefix} out of range for IPv${family}`);
    const table = this.tables[(family === 4 ? 0 : 2) + (prefix === width * 32 ? 0 : 1)]!;
    table.add(words, prefix, expiresAtMs ?? Infinity, tag);
  }

  add(network: IpNetwork, expiresAtMs: number | null, tag: number): void {
    writeBigintWords(network.start, widthOf(network.family), this.scratch);
    this.addWords(network.family, this.scratch, network.prefix, expiresAtMs, tag);
  }

  /** The build as steps (run once: the builder gives its columns to the index). */
  *steps(): Steps<CompactIpIndex> {
    const [v4Singles, v4Ranges, v6Singles, v6Ranges] = this.tables;
    return new CompactIpIndex([
      yield* v4Singles.finish(),
      yield* v4Ranges.finish(),
      yield* v6Singles.finish(),
      yield* v6Ranges.finish(),
    ]);
  }

  build(): CompactIpIndex {
    return runToEnd(this.steps());
  }

  /** Builds in slices of about `sliceMs`, giving the event loop back between them. */
  buildInSlices(sliceMs?: number): Promise<CompactIpIndex> {
    return runInSlices(this.steps(), sliceMs);
  }
}
