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
 * empty; `onRows` hears how many rows each page had (progress).
 */
export async function* jsonArray(
  readPage: (after: string) => Promise<TextPage>,
  first: string,
  onRows: (rows: number) => Promise<void> | void = () => {},
): AsyncGenerator<string> {
  yield '[';
  let after = first;
  let separator = '';
  for (;;) {
    const page = await readPage(after);
    if (page.rows === 0 || page.last === null) break;
    yield separator + page.json;
    separator = ',';
    after = page.last;
    await onRows(page.rows);
  }
  yield ']';
}
