/**
 * JSON objects written by this process from rows PostgreSQL sent in COPY's binary format, byte
 * for byte what `row_to_json` would have written for the same columns. PostgreSQL rendering
 * them cost it about twice as much as the scan itself (2.5 s of one core for a million
 * messages, measured with COPY … TO '/dev/null'); here it is about a quarter of that, on the
 * worker's core while PostgreSQL reads the next page.
 */

/** How a column's binary value becomes a JSON value; each writes what `row_to_json` writes. */
export type JsonKind =
  /** bigint, as a JSON string of its digits (ids: a JS number cannot hold them). */
  | 'int8-string'
  /** text, as a JSON string escaped as PostgreSQL's escape_json does. */
  | 'text'
  /** json, its text as it is: e.g. `to_json(timestamptz)`, so PostgreSQL keeps formatting dates. */
  | 'json'
  /** jsonb, its text (the binary form is a version byte, then jsonb_out's text). */
  | 'jsonb'
  /** smallint and integer, as JSON numbers. */
  | 'int2'
  | 'int4';

export interface JsonField {
  key: string;
  kind: JsonKind;
}

/** The fields of an object, prepared once: each key as the bytes written before its value. */
export interface JsonShape {
  kinds: readonly JsonKind[];
  prefixes: readonly Buffer[];
  /** Bytes an object can take besides 6× its values' bytes (keys, quotes, digits, `null`s). */
  overhead: number;
}

export function jsonShape(fields: readonly JsonField[]): JsonShape {
  const prefixes = fields.map((field, index) => Buffer.from(`${index === 0 ? ',{' : ','}${JSON.stringify(field.key)}:`));
  // Per value at most 24 bytes besides 6× its own (a quoted 20-digit bigint; `null`), then `}\n`.
  const overhead = prefixes.reduce((sum, prefix) => sum + prefix.length, 0) + 24 * fields.length + 2;
  return { kinds: fields.map((field) => field.kind), prefixes, overhead };
}

/** A page of binary COPY output, checked against its shape. */
export interface BinaryRows {
  data: Buffer;
  /** Where the first row starts, after the header. */
  start: number;
  rows: number;
  /** The first field of the last row as decimal digits (the keyset's next `after`); null when none. */
  lastKey: string | null;
  /** The largest row's bytes: bounds what one object can take. */
  largestRow: number;
}

/** `PGCOPY\n\377\r\n\0`, then flags and the header extension's length (both 32-bit). */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const FIXED_LENGTH: Partial<Record<JsonKind, number>> = { 'int8-string': 8, int2: 2, int4: 4 };

/**
 * Walks every row once (lengths only) so that rendering can trust the layout: the field count,
 * the fixed lengths of numbers, jsonb's version byte, the trailer. A mismatch means the SELECT
 * and the shape disagree, and fails the page rather than writing wrong JSON.
 */
export function readBinaryRows(data: Buffer, shape: JsonShape): BinaryRows {
  if (data.length < SIGNATURE.length + 8 || !data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('not COPY binary output');
  const start = SIGNATURE.length + 8 + data.readInt32BE(SIGNATURE.length + 4);
  const fields = shape.kinds.length;
  let position = start;
  let rows = 0;
  let lastRow = -1;
  let largestRow = 0;
  for (;;) {
    const count = data.readInt16BE(position);
    if (count === -1) break;
    if (count !== fields) throw new Error(`COPY row has ${count} fields, the shape ${fields}`);
    const rowStart = position;
    position += 2;
    for (let field = 0; field < fields; field += 1) {
      const length = data.readInt32BE(position);
      position += 4;
      if (length === -1) continue;
      const kind = shape.kinds[field]!;
      const fixed = FIXED_LENGTH[kind];
      if ((fixed !== undefined && length !== fixed) || (kind === 'jsonb' && data[position] !== 1)) {
        throw new Error(`COPY field ${field} does not hold a binary ${kind}`);
      }
      position += length;
    }
    largestRow = Math.max(largestRow, position - rowStart);
    lastRow = rowStart;
    rows += 1;
  }
  if (position + 2 !== data.length) throw new Error('COPY binary output continues past its trailer');
  const lastKey = lastRow === -1 || shape.kinds[0] !== 'int8-string' || data.readInt32BE(lastRow + 2) !== 8
    ? null
    : data.readBigInt64BE(lastRow + 6).toString();
  return { data, start, rows, lastKey, largestRow };
}

/** Output handed on in pieces of about this size, so compression starts before a page is written. */
const SLICE_BYTES = 64 * 1024;

/**
 * Each row as `,{…}\n` (a comma before every object, a newline after), in slices of about
 * 64 KiB. Lazy: a slice is written when the reader asks for it.
 */
export function* jsonObjects(page: BinaryRows, shape: JsonShape): Generator<Buffer> {
  const worstObject = shape.overhead + 6 * page.largestRow;
  const cursor = { position: page.start };
  for (let row = 0; row < page.rows; ) {
    const out = Buffer.allocUnsafe(SLICE_BYTES + worstObject);
    let at = 0;
    while (row < page.rows && at < SLICE_BYTES) {
      at = writeObject(page.data, cursor, shape, out, at);
      row += 1;
    }
    yield out.subarray(0, at);
  }
}

const QUOTE = 0x22;
const NULL = Buffer.from('null');

/** One row as `,{…}\n` into `out` at `at` (room checked by the caller); answers the new end. */
function writeObject(data: Buffer, cursor: { position: number }, shape: JsonShape, out: Buffer, at: number): number {
  let position = cursor.position + 2;
  const { kinds, prefixes } = shape;
  for (let field = 0; field < kinds.length; field += 1) {
    at = copyBytes(prefixes[field]!, 0, prefixes[field]!.length, out, at);
    const length = data.readInt32BE(position);
    position += 4;
    if (length === -1) {
      at = copyBytes(NULL, 0, 4, out, at);
      continue;
    }
    const end = position + length;
    switch (kinds[field]) {
      case 'int8-string':
        out[at++] = QUOTE;
        at = writeInt8(data, position, out, at);
        out[at++] = QUOTE;
        break;
      case 'text':
        at = writeJsonString(data, position, end, out, at);
        break;
      case 'json':
        at = copyBytes(data, position, end, out, at);
        break;
      case 'jsonb':
        at = copyBytes(data, position + 1, end, out, at);
        break;
      case 'int2':
        at = writeDigits(String(data.readInt16BE(position)), out, at);
        break;
      case 'int4':
        at = writeDigits(String(data.readInt32BE(position)), out, at);
        break;
    }
    position = end;
  }
  out[at++] = 0x7d; // }
  out[at++] = 0x0a; // \n
  cursor.position = position;
  return at;
}

/** Short runs byte by byte: cheaper than a native copy's call for the keys and ids that make up most of a row. */
function copyBytes(source: Buffer, from: number, to: number, out: Buffer, at: number): number {
  if (to - from > 48) return at + source.copy(out, at, from, to);
  for (let index = from; index < to; index += 1) out[at++] = source[index]!;
  return at;
}

function writeDigits(digits: string, out: Buffer, at: number): number {
  for (let index = 0; index < digits.length; index += 1) out[at++] = digits.charCodeAt(index);
  return at;
}

/**
 * A big-endian int64 as decimal digits without a BigInt (a tenth of its cost): value =
 * high·2³² + low and 2³² = 429496·10⁴ + 7296, so value = (high·429496 + ⌊rest/10⁴⌋)·10⁴ +
 * rest mod 10⁴ with rest = high·7296 + low, every term exact in a double (< 2⁵³).
 */
function writeInt8(data: Buffer, position: number, out: Buffer, at: number): number {
  const high = data.readInt32BE(position);
  if (high < 0) return writeDigits(data.readBigInt64BE(position).toString(), out, at);
  const rest = high * 7296 + data.readUInt32BE(position + 4);
  const lastFour = rest % 10000;
  const leading = high * 429496 + (rest - lastFour) / 10000;
  if (leading === 0) return writeDigits(String(lastFour), out, at);
  at = writeDigits(String(leading), out, at);
  // The last four digits zero-padded: "1dddd" without its 1.
  const padded = String(10000 + lastFour);
  for (let index = 1; index < 5; index += 1) out[at++] = padded.charCodeAt(index);
  return at;
}

/**
 * UTF-8 text as a JSON string. Most text needs no escape and is copied as bytes; otherwise it
 * goes through JSON.stringify, which escapes exactly what escape_json does (`"`, `\`, \b \f
 * \n \r \t by name, other control characters as lower-case \u00xx, nothing else).
 */
function writeJsonString(data: Buffer, from: number, to: number, out: Buffer, at: number): number {
  for (let index = from; index < to; index += 1) {
    const byte = data[index]!;
    if (byte < 0x20 || byte === QUOTE || byte === 0x5c) return at + out.write(JSON.stringify(data.toString('utf8', from, to)), at);
  }
  out[at++] = QUOTE;
  at = copyBytes(data, from, to, out, at);
  out[at++] = QUOTE;
  return at;
}
