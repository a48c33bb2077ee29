import type { JsonPage } from './archive-reads.ts';

/**
 * Rows per page: a page of messages is a few megabytes, from PostgreSQL and again as JSON text.
 * 10,000 rather than 5,000: fewer statements, and each keeps PostgreSQL busy longer while the
 * worker writes the last one (packages/bench/README.md#archive-export).
 */
export const PAGE_ROWS = 10_000;

/**
 * `[` + every row's object + `]`, as page bytes: pages of PAGE_ROWS are read by keyset from
 * `first` until one comes back short; `onRows` hears how many rows each page had (progress).
 * The next page is asked for as soon as one arrives, before this one's JSON is written (a page
 * of messages is written as it is iterated), so PostgreSQL reads it meanwhile.
 */
export async function* jsonArray(
  readPage: (after: string, rows: number) => Promise<JsonPage>,
  first: string,
  onRows: (rows: number) => Promise<void> | void = () => {},
): AsyncGenerator<string | Buffer> {
  yield '[';
  let pending: Promise<JsonPage> | null = readPage(first, PAGE_ROWS);
  let firstObject = true;
  while (pending) {
    const page: JsonPage = await pending;
    // Pages are keyed by the previous page's last key, so the next can only be asked for once
    // one arrives; a short page is the last.
    pending = page.last !== null && page.rows >= PAGE_ROWS ? readPage(page.last, PAGE_ROWS) : null;
    // A prefetched page that fails while this one is still being written is reported by the
    // next await; until then it must not count as unhandled.
    pending?.catch(() => {});
    if (page.rows === 0) continue;
    for (const chunk of page.json) {
      // Every object comes with a comma before it; the array's first must not.
      yield firstObject ? chunk.subarray(1) : chunk;
      firstObject = false;
    }
    await onRows(page.rows);
  }
  yield ']';
}
