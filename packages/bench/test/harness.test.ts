import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '@switchboard/testkit/processes';
import { CleanupStack } from '../src/cleanup.ts';
import { loadFor, parseCli } from '../src/cli.ts';
import { measure } from '../src/measure.ts';
import { forkHelper } from '../src/processes.ts';
import { formatReport } from '../src/report.ts';

const BASELINE_ENTRY = join(import.meta.dirname, '../src/baseline-server.ts');

describe('bench harness', () => {
  it('reads names and load options from the command line', () => {
    expect(parseCli([])).toEqual({
      benchmarks: [],
      list: false,
      load: { connections: 50, durationSeconds: 10, warmupSeconds: 3 },
      rounds: 1,
      durationGiven: false,
    });
    expect(parseCli(['discovery', '--duration', '2', '-c', '8', '--warmup=0']).load).toEqual({
      connections: 8,
      durationSeconds: 2,
      warmupSeconds: 0,
    });
    expect(parseCli(['ban-check', '--rounds', '5']).rounds).toBe(5);
    // A benchmark's own default duration applies unless --duration says otherwise.
    expect(loadFor(parseCli(['system']), { defaultDurationSeconds: 120 }).durationSeconds).toBe(120);
    expect(loadFor(parseCli(['system', '-d', '20']), { defaultDurationSeconds: 120 }).durationSeconds).toBe(20);
    expect(loadFor(parseCli(['discovery']), {}).durationSeconds).toBe(10);
    expect(() => parseCli(['--rounds', '0'])).toThrow(/--rounds/);
    expect(() => parseCli(['--duration', 'soon'])).toThrow(/--duration/);
    expect(() => parseCli(['--bogus'])).toThrow();
  });

  it('stops newest first and keeps going past a failing or hanging step', async () => {
    const cleanup = new CleanupStack();
    const order: string[] = [];
    cleanup.defer('first', () => void order.push('first'));
    cleanup.defer('hangs', () => new Promise<void>(() => order.push('hangs')));
    cleanup.defer('fails', () => {
      order.push('fails');
      throw new Error('boom');
    });
    await cleanup.run(100);
    await cleanup.run(100);
    expect(order).toEqual(['fails', 'hangs', 'first']);
  });

  it('serves the captured bytes and headers from a baseline process, measures it, and stops it', async () => {
    const cleanup = new CleanupStack();
    const body = Buffer.from('{"api_code_version":1}');
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      etag: '"abc"',
      'cache-control': 'public, max-age=60',
    };
    const message = { status: 200, headers, bodyBase64: body.toString('base64') };
    const baseline = await forkHelper('baseline', BASELINE_ENTRY, message, {}, (name, stop) =>
      cleanup.defer(name, stop),
    );
    try {
      const response = await fetch(`${baseline.url}/v1/.well-known/service`);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(body);
      expect(Object.fromEntries(Object.keys(headers).map((name) => [name, response.headers.get(name)]))).toEqual(
        headers,
      );
      expect(response.headers.get('x-powered-by')).toBeNull();

      const load = { connections: 2, durationSeconds: 1, warmupSeconds: 0 };
      const measured = await measure(baseline.url, load);
      expect(measured.requests).toBeGreaterThan(0);
      expect(measured).toMatchObject({ non2xx: 0, errors: 0, statusCodes: { 200: measured.requests } });
      const targets = [{ target: 'baseline', url: baseline.url, measurement: measured }];
      expect(formatReport({ benchmark: 'x', notes: [], targets, ratios: {} }, load)).toMatch(/^baseline\s+[\d,]+/m);
    } finally {
      await cleanup.run();
    }
    expect(isAlive(baseline.pid)).toBe(false);
  });
});
