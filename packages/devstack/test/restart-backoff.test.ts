import { describe, expect, it } from 'vitest';
import { createRestartBackoff } from '../src/restart-backoff.ts';

const POLICY = { initialDelayMs: 250, maxDelayMs: 10_000, resetAfterMs: 30_000 };

describe('restart backoff', () => {
  it('doubles the delay after each quick crash, up to the cap', () => {
    const backoff = createRestartBackoff(POLICY);
    const delays = Array.from({ length: 9 }, () => backoff.nextDelayMs(10));
    expect(delays).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  it('starts over at the first delay once a run has lasted resetAfterMs', () => {
    const backoff = createRestartBackoff(POLICY);
    for (let crash = 0; crash < 5; crash++) backoff.nextDelayMs(10);
    expect(backoff.nextDelayMs(POLICY.resetAfterMs - 1)).toBe(8_000);
    expect(backoff.nextDelayMs(POLICY.resetAfterMs)).toBe(250);
    expect(backoff.nextDelayMs(10)).toBe(500);
  });

  it('uses the cap from the start when it is below the first delay', () => {
    const backoff = createRestartBackoff({ ...POLICY, initialDelayMs: 500, maxDelayMs: 100 });
    expect([backoff.nextDelayMs(0), backoff.nextDelayMs(0)]).toEqual([100, 100]);
  });
});
