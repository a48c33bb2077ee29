import { describe, expect, it } from 'vitest';
import { watchEventLoop } from '@switchboard/testkit/event-loop';
import {
  type CompactIpIndex,
  CompactIpIndexBuilder,
  parseIpNetwork,
  resized,
  runInSlices,
  type IpNetwork,
} from '../src/index.ts';

interface Entry {
  network: IpNetwork;
  expiresAtMs: number | null;
}

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
}

/** Networks crowded into a few small blocks of both families, so that they nest and repeat. */
function randomEntries(count: number, next: () => number): Entry[] {
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    const text =
      i % 3 === 2
        ? `2001:db8::${(next() % 4).toString(16)}:${(next() % 16).toString(16)}/${112 + (next() % 17)}`
        : `10.0.${next() % 4}.${next() % 16}/${26 + (next() % 7)}`;
    entries.push({ network: parseIpNetwork(text)!, expiresAtMs: next() % 5 === 0 ? 500 : null });
  }
  return entries;
}

function build(entries: Entry[]): CompactIpIndex {
  const builder = new CompactIpIndexBuilder();
  for (const [i, entry] of entries.entries()) builder.add(entry.network, entry.expiresAtMs, i);
  return builder.build();
}

/** What the index must answer, by scanning: the narrowest live entry covering the query. */
function bruteForce(
  entries: Entry[],
  query: IpNetwork,
  nowMs: number,
  hidden: ReadonlySet<string> = new Set(),
): number | null {
  const covering = entries.filter(
    (entry) =>
      (entry.expiresAtMs ?? Infinity) > nowMs &&
      !hidden.has(entry.network.canonical) &&
      entry.network.family === query.family &&
      entry.network.start <= query.start &&
      entry.network.end >= query.end,
  );
  return covering.sort((a, b) => b.network.prefix - a.network.prefix)[0]?.network.prefix ?? null;
}

function randomQuery(next: () => number): IpNetwork {
  const prefixV4 = [32, 32, 30][next() % 3]!;
  const prefixV6 = [128, 128, 126][next() % 3]!;
  const text =
    next() % 3 === 2
      ? `2001:db8::${(next() % 4).toString(16)}:${(next() % 16).toString(16)}/${prefixV6}`
      : `10.0.${next() % 4}.${next() % 16}/${prefixV4}`;
  return parseIpNetwork(text)!;
}

describe('CompactIpIndex', () => {
  it('agrees with a brute-force scan for both families, built from sorted or shuffled entries', () => {
    const next = random(7);
    const entries = randomEntries(400, next);
    const shuffled = build(entries);
    const sorted = build(
      [...entries].sort(
        (a, b) =>
          a.network.family - b.network.family ||
          (a.network.start < b.network.start
            ? -1
            : a.network.start > b.network.start
              ? 1
              : a.network.prefix - b.network.prefix),
      ),
    );
    for (let i = 0; i < 1_000; i++) {
      const query = randomQuery(next);
      const expected = bruteForce(entries, query, 1_000);
      for (const index of [shuffled, sorted]) {
        const slot = index.find(query, 1_000);
        expect(slot < 0 ? null : index.network(slot).prefix).toBe(expected);
      }
    }
  });

  it('agrees with a brute-force scan across the runs its lookups start from', () => {
    // Thousands of entries, so a lookup searches only the run of its address's top bits:
    // addresses and networks on both sides of run boundaries, wide ranges that start in one
    // run and cover the next, and queries in runs that hold no entry at all.
    const next = random(23);
    const entries: Entry[] = [];
    const add = (text: string) =>
      entries.push({ network: parseIpNetwork(text)!, expiresAtMs: next() % 7 === 0 ? 500 : null });
    for (let octet = 0; octet < 255; octet += 1 + (next() % 3)) {
      add(`${octet}.255.255.${next() % 256}/32`);
      add(`${octet + 1}.0.0.${next() % 256}/32`);
      add(`${octet}.255.255.${next() % 256}/${28 + (next() % 5)}`);
      if (next() % 4 === 0) add(`${octet & 0xfe}.0.0.0/7`);
      if (next() % 8 === 0) add(`${octet}.128.0.0/9`);
      const word = (next() % 0x10000).toString(16);
      add(`${word}:ffff::${(next() % 16).toString(16)}/128`);
      add(`${word}:ffff::/${96 + (next() % 33)}`);
    }
    for (let i = 0; i < 2_000; i++) add(`${next() % 256}.${next() % 256}.${next() % 256}.${next() % 256}/32`);
    // Wider than a run of the ranges' table, found from a run before the query's: each /3 but
    // the last two, queried at the start of every /8 it covers (the ranges' runs are wider).
    for (let first = 0; first < 192; first += 32) add(`${first}.0.0.0/3`);
    const index = build(entries);
    const queries = [
      ...entries.map((entry) => entry.network),
      ...Array.from({ length: 256 }, (_, octet) => parseIpNetwork(`${octet}.0.0.1`)!),
      ...Array.from({ length: 3_000 }, () => {
        const octet = next() % 256;
        const edge = next() % 2 === 0 ? `${octet}.255.255.${next() % 256}` : `${octet}.0.0.${next() % 256}`;
        return parseIpNetwork(next() % 5 === 0 ? `${(next() % 0x10000).toString(16)}:ffff::1` : edge)!;
      }),
    ];
    for (const query of queries) {
      const slot = index.find(query, 1_000);
      expect(slot < 0 ? null : index.network(slot).prefix, query.canonical).toBe(bruteForce(entries, query, 1_000));
    }
  });

  it('passes over hidden networks to the wider ones around them', () => {
    const next = random(11);
    const entries = randomEntries(300, next);
    const index = build(entries);
    const hidden = new Set(entries.filter((_, i) => i % 4 === 0).map((entry) => entry.network.canonical));
    for (let i = 0; i < 500; i++) {
      const query = randomQuery(next);
      const slot = index.find(query, 1_000, hidden);
      expect(slot < 0 ? null : index.network(slot).prefix).toBe(bruteForce(entries, query, 1_000, hidden));
      if (slot >= 0) expect(hidden.has(index.canonical(slot))).toBe(false);
    }
  });

  it('reads back each entry: canonical text, bounds, expiry and tag', () => {
    const texts = [
      '1.2.3.4',
      '0.0.0.0/0',
      '10.1.0.0/16',
      '2001:db8::1',
      '2001:db8:0:1:1:1:1:1',
      '1:0:0:1::/64',
      '::/0',
      '2001:db8::/127',
    ];
    const entries = texts.map((text, i) => ({
      network: parseIpNetwork(text)!,
      expiresAtMs: i % 2 === 0 ? null : 9_000,
    }));
    const index = build(entries);
    expect(index.size).toBe(texts.length);
    // Per entry: start words, prefix, expiry, tag; ranges add end words and a parent link.
    const single = { 4: 4 + 1 + 8 + 4, 6: 16 + 1 + 8 + 4 };
    const range = { 4: single[4] + 4 + 4, 6: single[6] + 16 + 4 };
    // And each of the four tables' directories: two runs (three 32-bit positions) when this small.
    const directories = 4 * 3 * 4;
    const expected = entries.reduce(
      (sum, { network }) => sum + (network.start === network.end ? single : range)[network.family],
      directories,
    );
    expect(index.byteLength).toBe(expected);
    entries.forEach((entry, i) => {
      const query = { ...entry.network };
      const slot = index.find(query, 0);
      expect(index.canonical(slot)).toBe(entry.network.canonical);
      expect(index.network(slot)).toEqual(entry.network);
      expect(index.expiresAtMs(slot)).toBe(entry.expiresAtMs);
      expect(index.tag(slot)).toBe(i);
    });
  });

  it('clears host bits of what it is given', () => {
    const builder = new CompactIpIndexBuilder();
    builder.addWords(4, Uint32Array.of(0x0a0102ff), 24, null, 0);
    const index = builder.build();
    const slot = index.find(parseIpNetwork('10.1.2.7')!, 0);
    expect(index.canonical(slot)).toBe('10.1.2.0/24');
    expect(() => builder.addWords(4, Uint32Array.of(0), 33, null, 1)).toThrow(RangeError);
  });

  it('finds a repeated single address that is live when its twin expired', () => {
    const network = parseIpNetwork('192.0.2.1')!;
    const index = build([
      { network, expiresAtMs: null },
      { network, expiresAtMs: 500 },
    ]);
    expect(index.tag(index.find(network, 100))).toBe(1);
    expect(index.tag(index.find(network, 1_000))).toBe(0);
  });

  it('builds in slices that give the event loop turns, with the same answers as at once', async () => {
    const next = random(3);
    const entries = Array.from({ length: 200_000 }, () => ({
      network: parseIpNetwork(`${next() % 224}.${next() % 256}.${next() % 256}.0/${16 + (next() % 17)}`)!,
      expiresAtMs: null,
    }));
    const builder = new CompactIpIndexBuilder();
    for (const [i, entry] of entries.entries()) builder.add(entry.network, entry.expiresAtMs, i);
    const watch = watchEventLoop();
    const sliced = await builder.buildInSlices(5);
    const { turns, longestBlockCpuMs } = watch.stop();
    expect(turns).toBeGreaterThan(2);
    // Slices are 5 ms; the margin is for a garbage collection landing in one.
    expect(longestBlockCpuMs).toBeLessThan(100);
    const whole = build(entries);
    for (let i = 0; i < 2_000; i++) {
      const query = parseIpNetwork(`${next() % 224}.${next() % 256}.${next() % 256}.${next() % 256}`)!;
      expect(sliced.find(query, 0)).toBe(whole.find(query, 0));
    }
  });
});

describe('runInSlices', () => {
  it('returns what the steps return, and yields between slices', async () => {
    function* steps() {
      let sum = 0;
      for (let i = 0; i < 50; i++) {
        const until = performance.now() + 1;
        while (performance.now() < until) sum++;
        yield;
      }
      return sum > 0 ? 'done' : 'nothing';
    }
    let immediates = 0;
    const counting = setInterval(() => immediates++, 0);
    expect(await runInSlices(steps(), 5)).toBe('done');
    clearInterval(counting);
    expect(immediates).toBeGreaterThan(2);
  });
});

describe('resized', () => {
  it('keeps the elements that fit, zero-fills the rest, and frees the old buffer at once', () => {
    const column = Float64Array.of(1, 2, 3);
    const grown = resized(column, 5);
    expect([...grown]).toEqual([1, 2, 3, 0, 0]);
    expect(column.buffer.detached).toBe(true);
    const trimmed = resized(grown, 2);
    expect(trimmed).toBeInstanceOf(Float64Array);
    expect([...trimmed]).toEqual([1, 2]);
    expect(grown.buffer.detached).toBe(true);
  });
});
