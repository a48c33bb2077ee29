import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type CompactIpIndex,
  CompactIpIndexBuilder,
  readInetBinary,
  runInSlices,
  runToEnd,
  STEP_SIZE,
  type IpNetwork,
  type Steps,
} from '@switchboard/ip';
import { cpuMs } from './timing.ts';

/** Bytes after the network in a record: expires_at and created_at (float8 ms), reason (int4). */
const TAIL_BYTES = 20;
/** The gateway loader's page size and slice length. */
export const PAGE_SIZE = 10_000;
const SLICE_MS = 8;

export interface BenchBan {
  network: IpNetwork;
  /** Epoch milliseconds; Infinity: never. */
  expiresAtMs: number;
  createdAtMs: number;
}

/**
 * Pages as the gateway's loader receives them from PostgreSQL (readIpBanPage in
 * @switchboard/db): per ban inet's binary form, expiry and creation as float8, a 1-based reason id.
 */
export function encodePages(bans: BenchBan[]): Buffer[] {
  const pages: Buffer[] = [];
  for (let from = 0; from < bans.length; from += PAGE_SIZE) {
    const page = bans.slice(from, from + PAGE_SIZE);
    const buffer = Buffer.alloc(
      page.reduce((bytes, ban) => bytes + 4 + (ban.network.family === 4 ? 4 : 16) + TAIL_BYTES, 0),
    );
    let offset = 0;
    for (const ban of page) {
      const length = ban.network.family === 4 ? 4 : 16;
      offset = buffer.writeUInt8(ban.network.family === 4 ? 2 : 3, offset);
      offset = buffer.writeUInt8(ban.network.prefix, offset);
      offset = buffer.writeUInt8(1, offset);
      offset = buffer.writeUInt8(length, offset);
      for (let shift = 8 * (length - 1); shift >= 0; shift -= 8)
        offset = buffer.writeUInt8(Number((ban.network.start >> BigInt(shift)) & 0xffn), offset);
      offset = buffer.writeDoubleBE(ban.expiresAtMs, offset);
      offset = buffer.writeDoubleBE(ban.createdAtMs, offset);
      offset = buffer.writeInt32BE(1, offset);
    }
    pages.push(buffer);
  }
  return pages;
}

/** What the gateway keeps: the index plus creation time and reason per ban (by tag). */
export interface BenchTable {
  index: CompactIpIndex;
  createdAtMs: Float64Array;
  reasonIds: Int32Array;
}

class TableBuilder {
  readonly index = new CompactIpIndexBuilder();
  readonly words = new Uint32Array(4);
  createdAtMs = new Float64Array(0);
  reasonIds = new Int32Array(0);
  count = 0;

  /** The loader's page decoding, as steps. */
  *addPage(records: Buffer): Steps<void> {
    let offset = 0;
    while (offset < records.length) {
      const network = readInetBinary(records, offset, this.words);
      if (!network) throw new Error(`unreadable record at ${offset}`);
      offset += network.byteLength;
      if (this.count === this.reasonIds.length) this.grow();
      const tag = this.count++;
      this.createdAtMs[tag] = records.readDoubleBE(offset + 8);
      this.reasonIds[tag] = records.readInt32BE(offset + 16) - 1;
      this.index.addWords(network.family, this.words, network.prefix, records.readDoubleBE(offset), tag);
      offset += TAIL_BYTES;
      if (tag % STEP_SIZE === STEP_SIZE - 1) yield;
    }
  }

  private grow(): void {
    const createdAtMs = new Float64Array(Math.max(1_024, this.count * 2));
    createdAtMs.set(this.createdAtMs);
    this.createdAtMs = createdAtMs;
    const reasonIds = new Int32Array(createdAtMs.length);
    reasonIds.set(this.reasonIds);
    this.reasonIds = reasonIds;
  }
}

export interface ReloadResult {
  table: BenchTable;
  wallMs: number;
  cpuMs: number;
  /** monitorEventLoopDelay's max: the longest the event loop was held. */
  longestBlockMs: number;
  /** The same from a 1 ms interval timer's lateness, as a cross-check. */
  longestTimerLagMs: number;
}

function finished(builder: TableBuilder, index: CompactIpIndex): BenchTable {
  return {
    index,
    createdAtMs: builder.createdAtMs.slice(0, builder.count),
    reasonIds: builder.reasonIds.slice(0, builder.count),
  };
}

/** The same work in one piece, as a synchronous load would hold the thread: wall and CPU ms. */
export function reloadAtOnce(pages: Buffer[]): { table: BenchTable; wallMs: number; cpuMs: number } {
  const cpuStart = cpuMs();
  const started = performance.now();
  const builder = new TableBuilder();
  for (const page of pages) runToEnd(builder.addPage(page));
  const table = finished(builder, builder.index.build());
  return { table, wallMs: performance.now() - started, cpuMs: cpuMs() - cpuStart };
}

/**
 * A full reload as the gateway runs it, minus PostgreSQL: every page decoded in slices, the
 * event loop given a turn between pages (where the loader waits for the next page, here for
 * nothing: the worst case for blocking), then the build in slices.
 */
export async function reload(pages: Buffer[]): Promise<ReloadResult> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let longestTimerLagMs = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    longestTimerLagMs = Math.max(longestTimerLagMs, now - last);
    last = now;
  }, 1);
  delay.enable();
  const cpuStart = cpuMs();
  const started = performance.now();
  const builder = new TableBuilder();
  for (const page of pages) {
    await runInSlices(builder.addPage(page), SLICE_MS);
    await nextTurn();
  }
  const table = finished(builder, await builder.index.buildInSlices(SLICE_MS));
  const result = {
    table,
    wallMs: performance.now() - started,
    cpuMs: cpuMs() - cpuStart,
    longestBlockMs: 0,
    longestTimerLagMs: 0,
  };
  delay.disable();
  clearInterval(probe);
  return { ...result, longestBlockMs: delay.max / 1e6, longestTimerLagMs };
}

/** The check route's answer for a slot: the matched network and the ban's fields. */
export function answerOf(
  table: BenchTable,
  slot: number,
): { matched: string; reasonId: number; createdAtMs: number; expiresAtMs: number | null } {
  const tag = table.index.tag(slot);
  return {
    matched: table.index.canonical(slot),
    reasonId: table.reasonIds[tag]!,
    createdAtMs: table.createdAtMs[tag]!,
    expiresAtMs: table.index.expiresAtMs(slot),
  };
}
