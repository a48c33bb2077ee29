import { Readable } from 'node:stream';

/** Chunks handed to the ZIP writer: one deflate call per 64 KiB rather than one per row. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A byte stream of the text `pieces` yields, gathered into 64 KiB chunks. Pulled: the next
 * piece (a database page) is only produced when the reader wants more, so memory stays at a
 * page or two whatever the total.
 */
export function textStream(pieces: AsyncIterable<string>): Readable {
  return Readable.from(
    (async function* () {
      let pending = '';
      for await (const piece of pieces) {
        pending += piece;
        if (pending.length >= CHUNK_CHARS) {
          yield Buffer.from(pending);
          pending = '';
        }
      }
      if (pending) yield Buffer.from(pending);
    })(),
    { objectMode: false },
  );
}

/** A page of objects as JSON text (without brackets), and where the next page starts. */
export interface TextPage {
  json: string;
  last: string | null;
  rows: number;
}

/**
 * `[` + every page's objects + `]`: pages are read by keyset from `first` until one comes back
 * empty; `onRows` hears how many rows each page had (progress). The next page is asked for as
 * soon as one arrives, so PostgreSQL renders it while this one is compressed and uploaded.
 */
export async function* jsonArray(
  readPage: (after: string) => Promise<TextPage>,
  first: string,
  onRows: (rows: number) => Promise<void> | void = () => {},
): AsyncGenerator<string> {
  yield '[';
  let separator = '';
  // Pages are keyed by the previous page's last id, so the next can only be asked for once
  // one arrives; the slack is PostgreSQL rendering page n+1 while page n is written.
  let pending = readPage(first);
  for (;;) {
    const page = await pending;
    if (page.rows === 0 || page.last === null) break;
    pending = readPage(page.last);
    // A prefetched page that fails while this one is still being written is reported by the
    // next await; until then it must not count as unhandled.
    pending.catch(() => {});
    yield separator + page.json;
    separator = ',';
    await onRows(page.rows);
  }
  yield ']';
}
