import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { measureMix } from '../src/paced-mix.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Connections the latest server accepted. */
let accepted = 0;

/** Answers /slow after 30 ms, /missing with 404, anything else at once; its base URL. */
async function serve(): Promise<string> {
  accepted = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/slow') setTimeout(() => res.writeHead(204).end(), 30);
      else if (req.url === '/missing') res.writeHead(404, { 'content-length': 0 }).end();
      else res.writeHead(204).end();
    });
  });
  server.on('connection', () => {
    accepted += 1;
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('measureMix', () => {
  it('runs every lane at its own rate at once, and pools each group', async () => {
    const base = await serve();
    const lane = (name: string, group: string, path: string, requestsPerSecond: number) => ({
      name,
      group,
      target: { url: `${base}${path}`, method: 'GET' as const, headers: {} },
      requestsPerSecond,
      connections: 4,
    });
    const started = performance.now();
    const result = await measureMix({
      lanes: [
        lane('fast', 'executes', '/fast', 200),
        lane('slow', 'executes', '/slow', 40),
        lane('gone', 'reads', '/missing', 20),
      ],
      durationSeconds: 1,
    });
    // The lanes ran side by side, not one after another.
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(result.lanes['fast']!.statusCodes).toEqual({ 204: 200 });
    expect(result.lanes['slow']!.requests).toBe(40);
    expect(result.lanes['slow']!.latencyMs.p50).toBeGreaterThanOrEqual(30);
    expect(result.lanes['gone']!.non2xx).toBe(20);
    expect(result.groups['executes']!.requests).toBe(240);
    expect(result.groups['executes']!.latencyMs.max).toBeGreaterThanOrEqual(30);
    expect(result.groups['reads']!.statusCodes).toEqual({ 404: 20 });
    // Spent by this process, which sent the requests and served them: more than none, at most two cores.
    expect(result.generatorCpu).toBeGreaterThan(0);
    expect(result.generatorCpu).toBeLessThan(2);
  });

  it('opens every connection before the first request is due', async () => {
    const base = await serve();
    // Two requests over eight connections: sent on demand, two connections would be opened.
    const result = await measureMix({
      lanes: [
        {
          name: 'sparse',
          group: 'reads',
          target: { url: `${base}/fast`, method: 'GET', headers: {} },
          requestsPerSecond: 4,
          connections: 8,
        },
      ],
      durationSeconds: 0.5,
    });
    expect(result.lanes['sparse']!.requests).toBe(2);
    expect(accepted).toBe(8);
  });
});
