import {
  readIpBanPage,
  readIpBanVersion,
  RECORD_TAIL_BYTES,
  type IpBanPage,
  type Pool,
  type PoolClient,
} from '@switchboard/db';
import { readInetBinary, runInSlices, STEP_SIZE, type Steps } from '@switchboard/ip';
import { IpBanTableBuilder, type IpBanTable } from './ban-table.ts';

export const LOAD_PAGE_SIZE = 10_000;
/** The longest the loader holds the event loop at a time, give or take one step (milliseconds). */
export const LOAD_SLICE_MS = 8;

export interface LoadedBans {
  index: IpBanTable;
  /** Stored rows that could not be read (they cannot be enforced); none while PostgreSQL checks `cidr`. */
  skipped: number;
  /** The ip_bans change counter in the snapshot the bans were read from. */
  version: string;
}

/** Decodes a page's records (layout: readIpBanPage in @switchboard/db) into the builder; returns how many could not be read. */
function* addPage(builder: IpBanTableBuilder, page: IpBanPage): Steps<number> {
  const reasonIds = page.reasons.map((text) => builder.reasonId(text));
  const { records } = page;
  const words = new Uint32Array(4);
  let offset = 0;
  for (let i = 0; i < page.count; i++) {
    const network = readInetBinary(records, offset, words);
    if (!network || offset + network.byteLength + RECORD_TAIL_BYTES > records.length) return page.count - i;
    offset += network.byteLength;
    const expiresAtMs = records.readDoubleBE(offset);
    const createdAtMs = records.readDoubleBE(offset + 8);
    const reason = records.readInt32BE(offset + 16);
    offset += RECORD_TAIL_BYTES;
    builder.add(network, words, expiresAtMs, createdAtMs, reason === 0 ? -1 : reasonIds[reason - 1]!);
    if (i % STEP_SIZE === STEP_SIZE - 1) yield;
  }
  return 0;
}

/**
 * Frees a decoded page's bytes now when they are a buffer of their own (as pg gives a page):
 * a load's hundred-odd pages would otherwise wait for a collection, and those that lived long
 * enough to be promoted for a full one, which an idle process may not run for a long time.
 */
function releaseRecords(records: Buffer): void {
  const { buffer } = records;
  if (buffer instanceof ArrayBuffer && records.byteOffset === 0 && records.byteLength === buffer.byteLength)
    buffer.transfer(0);
}

/** Every live ban and the change counter, from one REPEATABLE READ snapshot, into `builder`. */
async function readSnapshot(
  client: PoolClient,
  builder: IpBanTableBuilder,
  pageSize: number,
): Promise<{ version: string; skipped: number }> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const version = await readIpBanVersion(client);
    let skipped = 0;
    let after: string | null = null;
    for (;;) {
      const page = await readIpBanPage(client, after, pageSize);
      skipped += await runInSlices(addPage(builder, page), LOAD_SLICE_MS);
      releaseRecords(page.records);
      if (page.count < pageSize) break;
      after = page.last;
    }
    await client.query('COMMIT');
    return { version, skipped };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * Reads every live IP ban a page at a time (so no result holds the table), with the change
 * counter from the same snapshot, and builds the index. Nothing holds the event loop for
 * long: each page becomes columns in slices as it arrives, and the build (mostly copying: bans
 * come in address order) runs in slices too. The old index answers meanwhile.
 */
export async function loadIpBans(pool: Pool, pageSize = LOAD_PAGE_SIZE): Promise<LoadedBans> {
  const builder = new IpBanTableBuilder();
  const client = await pool.connect();
  let snapshot: { version: string; skipped: number };
  try {
    snapshot = await readSnapshot(client, builder, pageSize);
  } catch (error) {
    // The connection may be what failed: the pool drops it rather than lend it again.
    client.release(true);
    throw error;
  }
  client.release();
  const index = await builder.build(LOAD_SLICE_MS);
  return { index, ...snapshot };
}
