import type { Submittable } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Pool } from './pool.ts';

/** Rows of JSON text as PostgreSQL wrote them, and how many there were. */
export interface CopiedRows {
  /** Each row's text followed by a newline, UTF-8, in the chunks it arrived in (a row may span two). */
  chunks: Buffer[];
  rows: number;
}

/** Bytes that never occur in JSON text unescaped (it escapes every control character). */
const UNUSED_DELIMITER = 0x02;
const UNUSED_QUOTE = 0x01;

/**
 * The rows of `select` (one text column of JSON each) read with COPY … TO STDOUT as raw bytes:
 * never decoded into JS strings and encoded back. CSV with a delimiter and a quote that JSON
 * cannot contain makes COPY write each value exactly as it is (the text format would double
 * every backslash); a quoted value would show the quote byte, so its presence is refused rather
 * than passed on. COPY takes no bind parameters: `select` may only hold literals the caller
 * made safe (ids through `bigintLiteral`).
 */
export function copyJsonRows(pool: Pool, select: string): Promise<CopiedRows> {
  return copyOut(pool, `COPY (${select}) TO STDOUT (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')`, (chunk) => {
    if (chunk.includes(UNUSED_QUOTE) || chunk.includes(UNUSED_DELIMITER)) throw new Error('COPY quoted a JSON value');
  });
}

/**
 * The rows of `select` in COPY's binary format (header, then each row's fields as
 * length-prefixed values in their types' binary form), as one buffer: the cheapest output
 * PostgreSQL has, no output function or escaping per value. Literals as for `copyJsonRows`.
 */
export async function copyBinaryRows(pool: Pool, select: string): Promise<{ data: Buffer; rows: number }> {
  const { chunks, rows } = await copyOut(pool, `COPY (${select}) TO STDOUT (FORMAT binary)`, () => {});
  return { data: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), rows };
}

/**
 * A `COPY … TO STDOUT` read whole, each chunk shown to `check` as it arrives. Whole, because
 * callers ask for a bounded page: the statement ends at once and its timeout keeps its meaning.
 */
async function copyOut(pool: Pool, sql: string, check: (chunk: Buffer) => void): Promise<CopiedRows> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    const copy = timedCopyTo(sql);
    // Kept as they came: joining them would copy every byte once more for nothing.
    const chunks: Buffer[] = [];
    for await (const chunk of client.query(copy)) {
      check(chunk as Buffer);
      chunks.push(chunk as Buffer);
    }
    return { chunks, rows: copy.rowCount };
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A COPY cut off midway leaves the connection inside the protocol: close it, never pool it.
    client.release(failure);
  }
}

/** A bigint as an SQL literal; throws unless `value` is an integer. */
export function bigintLiteral(value: string): string {
  return BigInt(value).toString();
}

type CopyQuery = ReturnType<typeof copyTo> & {
  callback?: (error?: Error) => void;
  handleReadyForQuery(): void;
  handleError(error: Error): void;
};

/**
 * pg arms the pool's query_timeout for a COPY too, and only the query's callback disarms it,
 * which pg-copy-streams' COPY TO never calls (brianc/node-pg-copy-streams#156): left alone,
 * the timer fires after a finished COPY and errors a stream nobody listens to any more. The
 * callback is called when the COPY ends either way; a COPY that outlives the bound still fails.
 */
function timedCopyTo(sql: string): CopyQuery & Submittable {
  const query = copyTo(sql) as CopyQuery;
  query.callback = () => {};
  const ready = query.handleReadyForQuery.bind(query);
  const fail = query.handleError.bind(query);
  query.handleReadyForQuery = () => {
    query.callback?.();
    ready();
  };
  query.handleError = (error) => {
    query.callback?.(error);
    fail(error);
  };
  return query;
}
