import { describe, expect, it } from 'vitest';
import { InFlight } from '../src/index.ts';

const item = (name: string) => ({ name });

describe('InFlight', () => {
  it('holds what was added until it is deleted, in any order', () => {
    const inFlight = new InFlight<{ name: string }>();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(item) as [
      ReturnType<typeof item>,
      ReturnType<typeof item>,
      ReturnType<typeof item>,
      ReturnType<typeof item>,
    ];
    for (const entry of [a, b, c, d]) inFlight.add(entry);
    expect(inFlight.delete(b)).toBe(true);
    expect(inFlight.delete(a)).toBe(true);
    expect(inFlight.size).toBe(2);
    expect(new Set(inFlight)).toEqual(new Set([c, d]));
    expect(inFlight.has(a)).toBe(false);
    expect(inFlight.has(d)).toBe(true);
    expect(inFlight.delete(a)).toBe(false);
    inFlight.add(a);
    expect(new Set(inFlight.values())).toEqual(new Set([a, c, d]));
  });

  it('adds an item once, however often it is added', () => {
    const inFlight = new InFlight<{ name: string }>();
    const a = item('a');
    inFlight.add(a);
    inFlight.add(a);
    expect(inFlight.size).toBe(1);
    inFlight.delete(a);
    expect(inFlight.size).toBe(0);
  });

  it('keeps one object in several collections apart', () => {
    const first = new InFlight<{ name: string }>();
    const second = new InFlight<{ name: string }>();
    const [a, b] = [item('a'), item('b')];
    first.add(a);
    second.add(b);
    second.add(a);
    first.delete(a);
    expect(first.size).toBe(0);
    expect([...second]).toEqual([b, a]);
  });

  it('lets a walk delete what it visits', () => {
    const inFlight = new InFlight<{ name: string }>();
    const items = Array.from({ length: 5 }, (_, index) => item(String(index)));
    for (const entry of items) inFlight.add(entry);
    const visited: string[] = [];
    for (const entry of inFlight) {
      visited.push(entry.name);
      inFlight.delete(entry);
    }
    expect(visited.sort()).toEqual(['0', '1', '2', '3', '4']);
    expect(inFlight.size).toBe(0);
  });

  it('agrees with a Set through a long random churn', () => {
    const inFlight = new InFlight<{ name: string }>();
    const reference = new Set<{ name: string }>();
    const pool = Array.from({ length: 50 }, (_, index) => item(String(index)));
    let seed = 7;
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    for (let step = 0; step < 5_000; step++) {
      const entry = pool[Math.floor(random() * pool.length)]!;
      if (random() < 0.5) {
        inFlight.add(entry);
        reference.add(entry);
      } else {
        expect(inFlight.delete(entry)).toBe(reference.delete(entry));
      }
      expect(inFlight.size).toBe(reference.size);
    }
    expect(new Set(inFlight)).toEqual(reference);
  });
});
