import { describe, expect, it } from 'vitest';
import { costlyBody } from '../src/scenarios/body-flood/index.ts';

describe('body-flood', () => {
  it('sends valid JSON of the costliest shape, so the gateway really parses it (no early refusal)', () => {
    for (const bytes of [6, 7, 1_000, 1_001, 65_536]) {
      const body = costlyBody(bytes);
      expect(body.length).toBe(bytes);
      const parsed: unknown = JSON.parse(body.toString('utf8'));
      expect(Array.isArray(parsed) && parsed.every((element) => typeof element === 'number')).toBe(true);
      expect((parsed as number[]).length).toBeGreaterThan(bytes / 2 - 2);
    }
  });
});
