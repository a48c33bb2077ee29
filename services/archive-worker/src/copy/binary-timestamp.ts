/**
 * A timestamptz in COPY's binary form (big-endian int64 microseconds since 2000-01-01 UTC)
 * written as PostgreSQL's JSON writes it in a session whose TimeZone is UTC:
 * `"2026-11-23T21:29:05.407+00:00"` — seconds' fraction without trailing zeros (none when
 * zero), `+00:00`, ` BC` after years before 1, `"infinity"` / `"-infinity"`. Formatting here
 * spares PostgreSQL to_json of two dates per row, a large share of a message page's cost
 * (docs/decisions.md#archive-messages-written-from-binary-copy).
 */

const MICROS_PER_DAY = 86_400_000_000;
/** Days from 0000-03-01 (the proleptic calendar's era start below) to 2000-01-01. */
const DAYS_TO_2000 = 730_425;
/** int64 extremes: PostgreSQL's -infinity and infinity. */
const HIGH_MIN = -0x80000000;
const HIGH_MAX = 0x7fffffff;
const LOW_MAX = 0xffffffff;

/** Writes the quoted date at `at`; answers the new end. Room: at most 40 bytes. */
export function writeTimestamp(data: Buffer, position: number, out: Buffer, at: number): number {
  const high = data.readInt32BE(position);
  const low = data.readUInt32BE(position + 4);
  if (high === HIGH_MIN && low === 0) return at + out.write('"-infinity"', at, 'latin1');
  if (high === HIGH_MAX && low === LOW_MAX) return at + out.write('"infinity"', at, 'latin1');
  let days: number;
  let micros: number;
  if (high >= -0x200000 && high < 0x200000) {
    // |value| < 2⁵³, exact in a double. The quotient is below 2¹⁷ in size, so its rounding
    // (half a unit in the last place, at most 2⁻³⁷) cannot reach the next whole day: a
    // non-whole quotient is at least 1/86,400,000,000 (> 2⁻³⁷) away from one.
    const value = high * 0x100000000 + low;
    days = Math.floor(value / MICROS_PER_DAY);
    micros = value - days * MICROS_PER_DAY;
  } else {
    // Before 1715 or after 2285: BigInt, for exactness.
    const value = data.readBigInt64BE(position);
    let whole = value / BigInt(MICROS_PER_DAY);
    if (whole * BigInt(MICROS_PER_DAY) > value) whole -= 1n;
    days = Number(whole);
    micros = Number(value - whole * BigInt(MICROS_PER_DAY));
  }
  const seconds = Math.floor(micros / 1_000_000);
  const fraction = micros - seconds * 1_000_000;
  out[at++] = QUOTE;
  at = writeDate(days, out, at);
  out[at++] = 0x54; // T
  at = writeTwoDigits(Math.floor(seconds / 3600), out, at);
  out[at++] = COLON;
  at = writeTwoDigits(Math.floor(seconds / 60) % 60, out, at);
  out[at++] = COLON;
  at = writeTwoDigits(seconds % 60, out, at);
  if (fraction !== 0) at = writeFraction(fraction, out, at);
  // lastDate is this date's day, just written.
  const suffix = lastDate.bc ? SUFFIX_BC : SUFFIX;
  for (let index = 0; index < suffix.length; index += 1) out[at++] = suffix[index]!;
  return at;
}

const SUFFIX = Buffer.from('+00:00"');
const SUFFIX_BC = Buffer.from('+00:00 BC"');

/** The last date written, as bytes: a page's messages mostly share their day. */
const lastDate = { days: Number.NaN, bytes: Buffer.alloc(0), bc: false };

/** `YYYY-MM-DD` of the day `days` after 2000-01-01 (the year without its sign: ` BC` follows). */
function writeDate(days: number, out: Buffer, at: number): number {
  if (days !== lastDate.days) {
    const { year, month, day } = civilDate(days + DAYS_TO_2000);
    const text = Buffer.alloc(16);
    let end = writePadded(year > 0 ? year : 1 - year, 4, text, 0);
    text[end++] = DASH;
    end = writeTwoDigits(month, text, end);
    text[end++] = DASH;
    end = writeTwoDigits(day, text, end);
    lastDate.days = days;
    lastDate.bytes = text.subarray(0, end);
    lastDate.bc = year <= 0;
  }
  const bytes = lastDate.bytes;
  for (let index = 0; index < bytes.length; index += 1) out[at++] = bytes[index]!;
  return at;
}

function writeTwoDigits(value: number, out: Buffer, at: number): number {
  const tens = (value / 10) | 0;
  out[at] = ZERO + tens;
  out[at + 1] = ZERO + value - tens * 10;
  return at + 2;
}

const QUOTE = 0x22;
const DASH = 0x2d;
const COLON = 0x3a;
const ZERO = 0x30;

/**
 * The proleptic Gregorian date `daysFromMarch0` days after 0000-03-01 (year 0 is 1 BC, as in
 * PostgreSQL's own arithmetic): H. Hinnant's civil_from_days, with 400-year eras that begin
 * in March so that the leap day falls last.
 */
function civilDate(daysFromMarch0: number): { year: number; month: number; day: number } {
  const era = Math.floor(daysFromMarch0 / 146_097);
  const dayOfEra = daysFromMarch0 - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** At least `width` digits, zero-padded (years past 9999 take more, as PostgreSQL writes them). */
function writePadded(value: number, width: number, out: Buffer, at: number): number {
  let digits = width;
  for (let bound = 10 ** width; value >= bound; bound *= 10) digits += 1;
  for (let index = at + digits - 1; index >= at; index -= 1) {
    const next = Math.floor(value / 10);
    out[index] = ZERO + value - next * 10;
    value = next;
  }
  return at + digits;
}

/** `.` and the microseconds' six digits without their trailing zeros (`micros` is not 0). */
function writeFraction(micros: number, out: Buffer, at: number): number {
  out[at++] = 0x2e; // .
  let end = at + 6;
  for (let index = end - 1; index >= at; index -= 1) {
    const next = (micros / 10) | 0;
    out[index] = ZERO + micros - next * 10;
    micros = next;
  }
  while (out[end - 1] === ZERO) end -= 1;
  return end;
}
