import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alternate, roundOrder } from '../src/compare/alternate.ts';
import { GATEWAY_ENTRY_IN_TREE, parseVariant } from '../src/compare/variant.ts';

/** A directory shaped like a checkout: it has the gateway's entry point. */
function fakeTree(): string {
  const tree = mkdtempSync(join(tmpdir(), 'sb-compare-'));
  mkdirSync(dirname(join(tree, GATEWAY_ENTRY_IN_TREE)), { recursive: true });
  writeFileSync(join(tree, GATEWAY_ENTRY_IN_TREE), '');
  return tree;
}

describe('parseVariant', () => {
  it('takes a tree alone, relative to the working directory', () => {
    const tree = fakeTree();
    expect(parseVariant('.', tree)).toEqual({ label: '.', tree, env: {} });
  });

  it('takes environment overrides after @, values keeping their own = and spaces', () => {
    const tree = fakeTree();
    expect(parseVariant(`${tree}@NODE_OPTIONS=--max-old-space-size=512 --trace-gc,GATEWAY_PROCESSES=1`)).toEqual({
      label: `${tree}@NODE_OPTIONS=--max-old-space-size=512 --trace-gc,GATEWAY_PROCESSES=1`,
      tree,
      env: { NODE_OPTIONS: '--max-old-space-size=512 --trace-gc', GATEWAY_PROCESSES: '1' },
    });
  });

  it('refuses a tree without a gateway and overrides that are not NAME=value', () => {
    const tree = fakeTree();
    expect(() => parseVariant(join(tree, 'nowhere'))).toThrow(/no services\/gateway\/src\/main.ts under/);
    expect(() => parseVariant(`${tree}@FAST`)).toThrow(/NAME=value/);
    expect(() => parseVariant(`${tree}@lower=1`)).toThrow(/NAME=value/);
    expect(() => parseVariant(`${tree}@`)).toThrow(/NAME=value/);
  });
});

describe('alternate', () => {
  it('puts every variant in every position equally often over 2 × n rounds', () => {
    expect(roundOrder(2, 0)).toEqual([0, 1]);
    expect(roundOrder(2, 1)).toEqual([1, 0]);
    expect([0, 1, 2, 3, 4, 5].map((round) => roundOrder(3, round))).toEqual([
      [0, 1, 2],
      [2, 1, 0],
      [1, 2, 0],
      [0, 2, 1],
      [2, 0, 1],
      [1, 0, 2],
    ]);
    for (const variants of [2, 3, 4, 5]) {
      const timesAt = Array.from({ length: variants }, () => Array<number>(variants).fill(0));
      for (let round = 0; round < 2 * variants; round++)
        for (const [position, variant] of roundOrder(variants, round).entries()) timesAt[variant]![position]!++;
      for (const positions of timesAt) expect(positions).toEqual(Array(variants).fill(2));
    }
  });

  it('measures every variant once a round and gives each variant its slices in the order they ran', async () => {
    const ran: number[] = [];
    const slices = await alternate(2, 3, async (variant) => {
      ran.push(variant);
      return { cpuMsPerRequest: ran.length, machineMsPerRequest: 1, requestsPerSecond: variant, p50Ms: 1, p99Ms: 2 };
    });
    expect(ran).toEqual([0, 1, 1, 0, 1, 0]);
    expect(slices.map((mine) => mine.map((slice) => slice.cpuMsPerRequest))).toEqual([
      [1, 4, 6],
      [2, 3, 5],
    ]);
  });
});
