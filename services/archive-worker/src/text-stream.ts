import { Readable } from 'node:stream';

/** Short text gathered before it is handed on: one deflate call per 64 KiB rather than one per row. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A byte stream of what `pieces` yields: text (brackets, separators, small JSON) gathered into
 * 64 KiB chunks, bytes (a database page, already large) passed on as they are. Pulled: the next
 * piece is only produced when the reader wants more, so memory stays at a few pages whatever
 * the total.
 */
export function textStream(pieces: AsyncIterable<string | Buffer>): Readable {
  return Readable.from(
    (async function* () {
      let pending = '';
      for await (const piece of pieces) {
        if (typeof piece === 'string') {
          pending += piece;
          if (pending.length < CHUNK_CHARS) continue;
        }
        if (pending) yield Buffer.from(pending);
        pending = '';
        if (typeof piece !== 'string') yield piece;
      }
      if (pending) yield Buffer.from(pending);
    })(),
    { objectMode: false },
  );
}
