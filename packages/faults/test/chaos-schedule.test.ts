import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/scenarios/chaos/random.ts';
import { chaosSchedule, faultCounts, type ChaosEvent } from '../src/scenarios/chaos/schedule.ts';

const storeFaultMs = ({ fault }: ChaosEvent) =>
  fault.kind === 'freeze' ? fault.forMs : fault.kind === 'restart' ? fault.downMs : 0;

describe('chaos schedule', () => {
  it('is the same for the same seed and differs for another', () => {
    expect(chaosSchedule(42, 180_000)).toEqual(chaosSchedule(42, 180_000));
    expect(chaosSchedule(43, 180_000)).not.toEqual(chaosSchedule(42, 180_000));
    expect(seededRandom(1).next()).toBe(seededRandom(1).next());
  });

  it('starts every fault within the duration, one store failing at a time', () => {
    for (const seed of [1, 2, 3, 99, 2 ** 32 - 1]) {
      const events = chaosSchedule(seed, 180_000);
      expect(events.every((event) => event.atMs > 0 && event.atMs < 180_000)).toBe(true);
      const stores = events.filter((event) => event.lane === 'stores');
      for (const [before, after] of stores.slice(0, -1).map((event, index) => [event, stores[index + 1]!] as const))
        expect(after.atMs).toBeGreaterThan(before.atMs + storeFaultMs(before));
    }
  });

  it('draws every kind of fault over a few minutes', () => {
    const counts = faultCounts(chaosSchedule(7, 600_000));
    for (const kind of [
      'redis freeze',
      'postgres freeze',
      's3 freeze',
      'redis restart',
      'postgres restart',
      'gateway kill',
    ])
      expect(counts).toContain(kind);
    expect(counts).toMatch(/worker kill/);
  });

  it("begins a longer run with the shorter run's faults", () => {
    expect(chaosSchedule(5, 60_000)).toEqual(chaosSchedule(5, 120_000).filter((event) => event.atMs < 60_000));
  });
});
