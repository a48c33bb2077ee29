import type { Pool } from '@switchboard/db';
import { CopyOutPage } from './copy-page.ts';

/** Rows as COPY wrote them, and how many there were. */
export interface CopiedRows {
  data: Buffer;
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
export async function copyJsonRows(pool: Pool, select: string): Promise<CopiedRows> {
  const copied = await copyOut(pool, `COPY (${select}) TO STDOUT (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')`);
  if (copied.data.includes(UNUSED_QUOTE) || copied.data.includes(UNUSED_DELIMITER))
    throw new Error('COPY quoted a JSON value');
  return copied;
}

/**
 * The rows of `select` in COPY's binary format (header, then each row's fields as
 * length-prefixed values in their types' binary form): the cheapest output PostgreSQL has, no
 * output function or escaping per value. Literals as for `copyJsonRows`.
 */
export function copyBinaryRows(pool: Pool, select: string): Promise<CopiedRows> {
  return copyOut(pool, `COPY (${select}) TO STDOUT (FORMAT binary)`);
}

/**
 * A `COPY … TO STDOUT` read whole into one buffer (`CopyOutPage`). Whole, because callers ask
 * for a bounded page: the statement ends at once and its timeout keeps its meaning.
 */
async function copyOut(pool: Pool, sql: string): Promise<CopiedRows> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    const page = new CopyOutPage(sql);
    client.query(page);
    return await page.result;
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
