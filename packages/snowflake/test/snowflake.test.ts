import { describe, expect, it } from 'vitest';
import {
  createSnowflakeGenerator,
  parseSnowflake,
  snowflakeFromTimestamp,
  snowflakeText,
  snowflakeTimestamp,
  snowflakeWorkerId,
} from '../src/index.ts';

describe('snowflake', () => {
  it('encodes time, worker and sequence and stays unique and increasing', () => {
    const fixedMs = Date.UTC(2026, 0, 1);
    const generator = createSnowflakeGenerator(513, () => fixedMs);
    const ids = Array.from({ length: 10_000 }, () => generator.nextBigInt());
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(snowflakeWorkerId(ids[0]!)).toBe(513);
    expect(snowflakeTimestamp(ids[0]!).getTime()).toBe(fixedMs);
  });

  it('does not repeat ids when the clock steps backwards', () => {
    let now = Date.UTC(2026, 0, 1);
    const generator = createSnowflakeGenerator(1, () => now);
    const first = generator.nextBigInt();
    now -= 5000;
    expect(generator.nextBigInt() > first).toBe(true);
  });

  it('parses decimal strings and safe integers only', () => {
    expect(parseSnowflake(' 123 ')).toBe(123n);
    expect(parseSnowflake(42)).toBe(42n);
    expect(parseSnowflake('9223372036854775807')).toBe(9223372036854775807n);
    for (const bad of ['9223372036854775808', '0x10', '-1', '1e3', '01', '', 1.5, -3, 2 ** 60, null, {}]) {
      expect(parseSnowflake(bad)).toBeNull();
      expect(snowflakeText(bad)).toBeNull();
    }
  });

  it('answers the canonical decimal text of what parseSnowflake accepts, over the whole range', () => {
    for (const good of [
      ' 123 ',
      42,
      0,
      '0',
      '999999999999999999',
      '1000000000000000000',
      '9223372036854775807',
      '9223372036854775806',
      Number.MAX_SAFE_INTEGER,
    ]) {
      expect(snowflakeText(good)).toBe(parseSnowflake(good)!.toString());
    }
    for (const bad of ['9223372036854775808', '9999999999999999999', '10000000000000000000', '00', ' 0123']) {
      expect(snowflakeText(bad)).toBeNull();
    }
  });

  it('rejects worker ids outside 10 bits', () => {
    expect(() => createSnowflakeGenerator(1024)).toThrow(RangeError);
  });

  it('maps a date to the smallest id of that millisecond', () => {
    const date = new Date(Date.UTC(2026, 5, 1));
    expect(snowflakeTimestamp(snowflakeFromTimestamp(date)).getTime()).toBe(date.getTime());
  });
});
