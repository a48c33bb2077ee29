/**
 * Snowflake ids (docs/decisions.md#snowflake-ids): 41 bits of milliseconds since 2015-01-01T00:00:00Z,
 * 10 bits of worker id, 12 bits of sequence. Ids are bigints internally and decimal
 * strings on the wire.
 */
export const SNOWFLAKE_EPOCH_MS = 1420070400000n;
const WORKER_ID_BITS = 10n;
const SEQUENCE_BITS = 12n;
export const MAX_WORKER_ID = (1 << Number(WORKER_ID_BITS)) - 1;
const MAX_SEQUENCE = (1n << SEQUENCE_BITS) - 1n;
const MAX_SNOWFLAKE = (1n << 63n) - 1n;
const DECIMAL = /^(0|[1-9][0-9]*)$/;
const MAX_SNOWFLAKE_TEXT = MAX_SNOWFLAKE.toString();
const MAX_SNOWFLAKE_DIGITS = MAX_SNOWFLAKE_TEXT.length;

export interface SnowflakeGenerator {
  /** The next id as a decimal string. */
  next(): string;
  nextBigInt(): bigint;
}

/**
 * A generator for one worker id. Processes take theirs from a lease (acquireSnowflakeLease), so
 * no two live processes share one; within a generator the sequence and a monotonic clock guard
 * uniqueness.
 */
export function createSnowflakeGenerator(workerId: number, now: () => number = Date.now): SnowflakeGenerator {
  if (!Number.isInteger(workerId) || workerId < 0 || workerId > MAX_WORKER_ID) {
    throw new RangeError(`snowflake worker id must be an integer in 0..${MAX_WORKER_ID}`);
  }
  const worker = BigInt(workerId);
  let lastMs = -1n;
  let sequence = 0n;

  function nextBigInt(): bigint {
    let ms = BigInt(now()) - SNOWFLAKE_EPOCH_MS;
    // A clock that steps backwards must not repeat ids: keep using the last timestamp.
    if (ms < lastMs) ms = lastMs;
    if (ms === lastMs) {
      sequence = (sequence + 1n) & MAX_SEQUENCE;
      if (sequence === 0n) ms = lastMs + 1n; // sequence exhausted: borrow the next millisecond
    } else {
      sequence = 0n;
    }
    lastMs = ms;
    return (ms << (WORKER_ID_BITS + SEQUENCE_BITS)) | (worker << SEQUENCE_BITS) | sequence;
  }

  return { nextBigInt, next: () => nextBigInt().toString() };
}

/**
 * Parses a snowflake given as a decimal string (surrounding white space allowed) or a safe
 * integer. Returns null for anything else, including values beyond 2^63-1.
 */
export function parseSnowflake(value: unknown): bigint | null {
  const text = snowflakeText(value);
  return text === null ? null : BigInt(text);
}

/**
 * The same parse as parseSnowflake, answering the id as its canonical decimal string (what the
 * wire carries) without a BigInt round trip: the decimal pattern refuses leading zeros, so a
 * string that passes it is already canonical and only needs its range checked.
 */
export function snowflakeText(value: unknown): string | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  if (text.length > MAX_SNOWFLAKE_DIGITS || !DECIMAL.test(text)) return null;
  // Equal lengths of digits without leading zeros compare as their numbers do.
  return text.length < MAX_SNOWFLAKE_DIGITS || text <= MAX_SNOWFLAKE_TEXT ? text : null;
}

/** The creation time encoded in a snowflake. */
export function snowflakeTimestamp(id: bigint | string): Date {
  const ms = (BigInt(id) >> (WORKER_ID_BITS + SEQUENCE_BITS)) + SNOWFLAKE_EPOCH_MS;
  return new Date(Number(ms));
}

/** The worker id encoded in a snowflake: which process made it. */
export function snowflakeWorkerId(id: bigint | string): number {
  return Number((BigInt(id) >> SEQUENCE_BITS) & BigInt(MAX_WORKER_ID));
}

/** The smallest id that could have been made at `date`, for time-range queries on id order. */
export function snowflakeFromTimestamp(date: Date): bigint {
  const ms = BigInt(date.getTime()) - SNOWFLAKE_EPOCH_MS;
  return ms <= 0n ? 0n : ms << (WORKER_ID_BITS + SEQUENCE_BITS);
}
