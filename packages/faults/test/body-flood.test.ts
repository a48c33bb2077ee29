import { describe, expect, it } from 'vitest';
import { assertJsonCounts, MAX_JSON_VALUES } from '@switchboard/http';
import { costlyBody } from '../src/scenarios/body-flood/index.ts';

describe('body-flood', () => {
  it('sends valid JSON of the costliest shape the gateway still parses (no early refusal)', () => {
    for (const bytes of [6, 7, 1_000, 1_001, 65_536, 2 * MAX_JSON_VALUES + 10, 25 * 1024 * 1024]) {
      const body = costlyBody(bytes);
      expect(body.length).toBe(bytes);
      const text = body.toString('utf8');
      expect(() => assertJsonCounts(text)).not.toThrow();
      const parsed: unknown = JSON.parse(text);
      expect(Array.isArray(parsed)).toBe(true);
      const numbers = (parsed as unknown[]).filter((element) => typeof element === 'number');
      expect(numbers.length).toBeGreaterThanOrEqual(Math.min(bytes / 2 - 2, MAX_JSON_VALUES - 1));
    }
  });
});
