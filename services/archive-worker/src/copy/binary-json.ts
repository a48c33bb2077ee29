import { writeTimestamp } from './binary-timestamp.ts';

/**
 * JSON objects written by this process from rows PostgreSQL sent in COPY's binary format, byte
 * for byte what `row_to_json` would have written for the same columns. Rendering them was
 * PostgreSQL's largest cost in an export, more than the scan itself; here it is cheaper, and on
 * the worker's core while PostgreSQL reads the next page
 * (docs/decisions.md#archive-messages-written-from-binary-copy).
 */

/** How a column's binary value becomes a JSON value; each writes what `row_to_json` writes. */
export type JsonKind =
  /** bigint, as a JSON string of its digits (ids: a JS number cannot hold them). */
  | 'int8-string'
  /** text, as a JSON string escaped as PostgreSQL's escape_json does. */
  | 'text'
  /** jsonb, its text (the binary form is a version byte, then jsonb_out's text). */
  | 'jsonb'
  /** smallint and integer, as JSON numbers. */
  | 'int2'
  | 'int4'
  /** timestamptz, as an ISO 8601 string in UTC (`binary-timestamp.ts`). */
  | 'timestamptz';

export interface JsonField {
  key: string;
  kind: JsonKind;
}

/** The fields of an object, prepared once: each key as the bytes written before its value. */
export interface JsonShape {
  kinds: readonly JsonKind[];
  /** The kinds as KIND codes: the per-value switch compares small integers. */
  codes: Uint8Array;
  /** Each field's binary length when its kind has one, else -1. */
  fixedLengths: Int8Array;
  prefixes: readonly Buffer[];
  /** Bytes an object can take besides 6× its values' bytes (keys, quotes, digits, `null`s). */
  overhead: number;
}

export function jsonShape(fields: readonly JsonField[]): JsonShape {
  const prefixes = fields.map((field, index) =>
    Buffer.from(`${index === 0 ? ',{' : ','}${JSON.stringify(field.key)}:`),
  );
  // Per value at most 24 bytes besides 6× its own (a quoted 20-digit bigint; `null`; a date's
  // 40 from 8), then `}\n`.
  const overhead = prefixes.reduce((sum, prefix) => sum + prefix.length, 0) + 24 * fields.length + 2;
  const kinds = fields.map((field) => field.kind);
  return {
    kinds,
    codes: Uint8Array.from(kinds, (kind) => KIND[kind]),
    fixedLengths: Int8Array.from(kinds, (kind) => FIXED_LENGTH[kind] ?? -1),
    prefixes,
    overhead,
  };
}

const KIND = { 'int8-string': 0, text: 1, jsonb: 2, int2: 3, int4: 4, timestamptz: 5 } as const satisfies Record<
  JsonKind,
  number
>;

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
const FIXED_LENGTH: Partial<Record<JsonKind, number>> = { 'int8-string': 8, int2: 2, int4: 4, timestamptz: 8 };

/**
 * Walks every row once (lengths only) so that rendering can trust the layout: the field count,
 * the fixed lengths of numbers, jsonb's version byte, the trailer. A mismatch means the SELECT
 * and the shape disagree, and fails the page rather than writing wrong JSON.
 */
export function readBinaryRows(data: Buffer, shape: JsonShape): BinaryRows {
  if (data.length < SIGNATURE.length + 8 || !data.subarray(0, SIGNATURE.length).equals(SIGNATURE))
    throw new Error('not COPY binary output');
  const start = SIGNATURE.length + 8 + data.readInt32BE(SIGNATURE.length + 4);
  const { codes, fixedLengths } = shape;
  const fields = codes.length;
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
      const fixed = fixedLengths[field]!;
      if ((fixed !== -1 && length !== fixed) || (codes[field] === KIND.jsonb && data[position] !== 1)) {
        throw new Error(`COPY field ${field} does not hold a binary ${shape.kinds[field]}`);
      }
      position += length;
    }
    largestRow = Math.max(largestRow, position - rowStart);
    lastRow = rowStart;
    rows += 1;
  }
  if (position + 2 !== data.length) throw new Error('COPY binary output continues past its trailer');
  const lastKey =
    lastRow === -1 || shape.kinds[0] !== 'int8-string' || data.readInt32BE(lastRow + 2) !== 8
      ? null
      : data.readBigInt64BE(lastRow + 6).toString();
  return { data, start, rows, lastKey, largestRow };
}

/**
 * Output handed on in pieces of about this size (a page of messages is one or two): each piece
 * is one deflate call on zlib's thread, and smaller pieces cost more deflate time, each call's
 * round trip included (docs/decisions.md#archive-messages-written-from-binary-copy).
 */
const SLICE_BYTES = 1024 * 1024;

/**
 * Each row as `,{…}\n` (a comma before every object, a newline after), in slices of about
 * 1 MiB. Lazy: a slice is written when the reader asks for it, so the next page can be asked
 * for first and PostgreSQL reads it meanwhile.
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
  const { codes, prefixes } = shape;
  for (let field = 0; field < codes.length; field += 1) {
    out.set(prefixes[field]!, at);
    at += prefixes[field]!.length;
    const length = data.readInt32BE(position);
    position += 4;
    if (length === -1) {
      at = copyBytes(NULL, 0, 4, out, at);
      continue;
    }
    const end = position + length;
    switch (codes[field]) {
      case KIND['int8-string']:
        out[at++] = QUOTE;
        at = writeInt8(data, position, out, at);
        out[at++] = QUOTE;
        break;
      case KIND.text:
        at = writeJsonString(data, position, end, out, at);
        break;
      case KIND.jsonb:
        at = copyBytes(data, position + 1, end, out, at);
        break;
      case KIND.int2:
        at = writeInteger(data.readInt16BE(position), out, at);
        break;
      case KIND.int4:
        at = writeInteger(data.readInt32BE(position), out, at);
        break;
      case KIND.timestamptz:
        at = writeTimestamp(data, position, out, at);
        break;
    }
    position = end;
  }
  out[at++] = 0x7d; // }
  out[at++] = 0x0a; // \n
  cursor.position = position;
  return at;
}

/** Short runs byte by byte: cheaper than a native copy's call for the short values that make up most of a row. */
function copyBytes(source: Buffer, from: number, to: number, out: Buffer, at: number): number {
  if (to - from > 48) return at + source.copy(out, at, from, to);
  for (let index = from; index < to; index += 1) out[at++] = source[index]!;
  return at;
}

const ZERO = 0x30;

/** A 32-bit integer's decimal digits, written in place: no string per value. */
function writeInteger(value: number, out: Buffer, at: number): number {
  if (value >= 0) return writeDigits(value, digitCount(value), out, at);
  out[at] = 0x2d; // -
  return writeDigits(-value, digitCount(-value), out, at + 1);
}

/** How many digits a non-negative integer below 10¹⁰ has. */
function digitCount(value: number): number {
  let count = 1;
  while (count < 10 && value >= POWERS_OF_TEN[count]!) count += 1;
  return count;
}

const POWERS_OF_TEN = Array.from({ length: 11 }, (_, power) => 10 ** power);

/** `value`'s last `count` digits (zero-padded), right to left; `value` at most 2³¹ (its tenth fits a 32-bit integer). */
function writeDigits(value: number, count: number, out: Buffer, at: number): number {
  for (let index = at + count - 1; index >= at; index -= 1) {
    const next = (value / 10) | 0;
    out[index] = ZERO + value - next * 10;
    value = next;
  }
  return at + count;
}

/**
 * A big-endian int64 as decimal digits without a BigInt or a string, which cost far more per id
 * than this arithmetic (docs/decisions.md#archive-messages-written-from-binary-copy):
 * value = high·2³² + low and 2³² = 429496·10⁴ + 7296, so with rest = high·7296 + low the
 * value is (high·429496 + ⌊rest/10⁴⌋)·10⁴ + rest mod 10⁴; that leading part is split again at
 * 10⁸. Every term is an integer below 2⁵³, exact in a double, and each quotient is far enough
 * from the next integer that rounding cannot carry it over.
 */
function writeInt8(data: Buffer, position: number, out: Buffer, at: number): number {
  const high = data.readInt32BE(position);
  if (high < 0) return at + out.write(data.readBigInt64BE(position).toString(), at, 'latin1');
  const rest = high * 7296 + data.readUInt32BE(position + 4);
  const restTenThousands = Math.floor(rest / 10000);
  const lastFour = rest - restTenThousands * 10000;
  const leading = high * 429496 + restTenThousands;
  if (leading === 0) return writeDigits(lastFour, digitCount(lastFour), out, at);
  const top = Math.floor(leading / 100000000);
  const middleEight = leading - top * 100000000;
  at =
    top === 0
      ? writeDigits(middleEight, digitCount(middleEight), out, at)
      : writeDigits(middleEight, 8, out, writeDigits(top, digitCount(top), out, at));
  return writeDigits(lastFour, 4, out, at);
}

/**
 * UTF-8 text as a JSON string. Most text needs no escape and is copied byte by byte as it is
 * checked; otherwise it is written again from the opening quote through JSON.stringify, which escapes exactly what escape_json does (`"`, `\`, \b \f
 * \n \r \t by name, other control characters as lower-case \u00xx, nothing else).
 */
function writeJsonString(data: Buffer, from: number, to: number, out: Buffer, at: number): number {
  const start = at;
  out[at++] = QUOTE;
  for (let index = from; index < to; index += 1) {
    const byte = data[index]!;
    if (byte < 0x20 || byte === QUOTE || byte === 0x5c)
      return start + out.write(JSON.stringify(data.toString('utf8', from, to)), start);
    out[at++] = byte;
  }
  out[at++] = QUOTE;
  return at;
}
