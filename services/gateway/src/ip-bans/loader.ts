import { readLiveIpBanPage, type Queryable } from '@switchboard/db';
import { IpIndex } from '@switchboard/ip';
import { createInterner, entryFromRow, type IpBanEntry } from './entry.ts';

export const LOAD_PAGE_SIZE = 10_000;

export interface LoadedBans {
  index: IpIndex<IpBanEntry>;
  /** Stored rows whose network did not parse (they cannot be enforced). */
  skipped: number;
}

/**
 * Reads every live IP ban page by page (keyset on the network, so no page holds more than
 * LOAD_PAGE_SIZE rows and the event loop breathes between pages) and builds the index. Rows
 * become index entries as they arrive; only the entries and then the index are kept.
 */
export async function loadIpBans(db: Queryable, pageSize = LOAD_PAGE_SIZE): Promise<LoadedBans> {
  const entries: IpBanEntry[] = [];
  const intern = createInterner();
  let skipped = 0;
  let after: string | null = null;
  for (;;) {
    const rows = await readLiveIpBanPage(db, after, pageSize);
    for (const row of rows) {
      const entry = entryFromRow(row, intern);
      if (entry) entries.push(entry);
      else skipped++;
    }
    if (rows.length < pageSize) break;
    after = rows[rows.length - 1]!.network;
  }
  return { index: new IpIndex(entries), skipped };
}
