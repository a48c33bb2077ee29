import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { measurePaced } from '../src/paced-load.ts';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A real HTTP server calling `handle` with each request's whole body; its base URL. */
async function serve(handle: Handler): Promise<string> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, Buffer.concat(chunks).toString(), res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('measurePaced', () => {
  it('sends every request whole, with its own unique header, at the rate asked', async () => {
    const seen: { method?: string; url?: string; type?: string; delivery?: string; body: string }[] = [];
    const base = await serve((req, body, res) => {
      seen.push({
        method: req.method,
        url: req.url,
        type: req.headers['content-type'],
        delivery: req.headers['x-delivery'] as string,
        body,
      });
      res.writeHead(204).end();
    });
    const body = JSON.stringify({ text: 'é'.repeat(3000) });
    const started = performance.now();
    const result = await measurePaced(
      {
        url: `${base}/hooks/1?wait=false`,
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        uniqueHeader: 'x-delivery',
      },
      { requestsPerSecond: 200, durationSeconds: 1, connections: 4 },
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(result.requests).toBe(200);
    expect(result.statusCodes).toEqual({ 204: 200 });
    expect(result.errors).toBe(0);
    expect(seen).toHaveLength(200);
    expect(new Set(seen.map((request) => request.delivery)).size).toBe(200);
    for (const request of seen) {
      expect(request).toMatchObject({ method: 'POST', url: '/hooks/1?wait=false', type: 'application/json', body });
      expect(request.delivery).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  it('reads answers with bodies and answers that close the connection, counting each status', async () => {
    let count = 0;
    const base = await serve((_req, _body, res) => {
      count += 1;
      // With their lengths, as express sends JSON.
      const notFound = '{"code":10015}';
      const found = JSON.stringify({ pad: 'x'.repeat(20_000) });
      if (count % 3 === 0) res.writeHead(404, { 'content-length': notFound.length, connection: 'close' }).end(notFound);
      else res.writeHead(200, { 'content-length': found.length }).end(found);
    });
    const result = await measurePaced(
      { url: `${base}/`, method: 'GET', headers: {} },
      { requestsPerSecond: 300, durationSeconds: 0.5, connections: 2 },
    );
    expect(result.statusCodes).toEqual({ 200: 100, 404: 50 });
    expect(result.non2xx).toBe(50);
    expect(result.errors).toBe(0);
  });

  it('sends the bodies in turn and spreads connections over the replicas', async () => {
    const bodiesSeen: string[] = [];
    const bySever = [0, 0];
    const first = await serve((_req, body, res) => {
      bodiesSeen.push(body);
      bySever[0]! += 1;
      res.writeHead(204).end();
    });
    const second = await serve((_req, body, res) => {
      bodiesSeen.push(body);
      bySever[1]! += 1;
      res.writeHead(204).end();
    });
    const result = await measurePaced(
      {
        url: `${first}/ops`,
        method: 'POST',
        bodies: ['{"n":1}', '{"n":2}', '{"n":3}'],
        headers: {},
        replicaOrigins: [second],
      },
      { requestsPerSecond: 60, durationSeconds: 0.5, connections: 2 },
    );
    expect(result.statusCodes).toEqual({ 204: 30 });
    expect(bodiesSeen.filter((body) => body === '{"n":1}')).toHaveLength(10);
    expect(new Set(bodiesSeen)).toEqual(new Set(['{"n":1}', '{"n":2}', '{"n":3}']));
    // Two connections, one to each replica, used in turn.
    expect(bySever).toEqual([15, 15]);
  });

  it('places each request at its phase of the interval', async () => {
    const arrivals: number[] = [];
    const base = await serve((_req, _body, res) => {
      arrivals.push(performance.now());
      res.writeHead(204).end();
    });
    const started = performance.now();
    const result = await measurePaced(
      { url: `${base}/`, method: 'GET', headers: {} },
      { requestsPerSecond: 2, durationSeconds: 1, connections: 1, phase: 0.5 },
    );
    expect(result.requests).toBe(2);
    // Due at 250 and 750 ms rather than 0 and 500.
    expect(arrivals[0]! - started).toBeGreaterThanOrEqual(245);
    expect(arrivals[1]! - started).toBeGreaterThanOrEqual(745);
  });

  it('charges a request the time it waited for a connection', async () => {
    const base = await serve((_req, _body, res) => setTimeout(() => res.writeHead(204).end(), 50));
    const result = await measurePaced(
      { url: `${base}/`, method: 'GET', headers: {} },
      { requestsPerSecond: 100, durationSeconds: 0.5, connections: 1 },
    );
    expect(result.requests).toBe(50);
    // One connection answers every 50 ms while requests fall due every 10 ms: they queue.
    expect(result.latencyMs.max).toBeGreaterThan(1000);
  });

  it('counts a refused connection as an error, not an answer', async () => {
    const base = await serve((_req, _body, res) => res.end());
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
    const result = await measurePaced(
      { url: `${base}/`, method: 'GET', headers: {} },
      { requestsPerSecond: 50, durationSeconds: 0.2, connections: 2 },
    );
    expect(result.requests).toBe(0);
    expect(result.errorCodes).toEqual({ ECONNREFUSED: 10 });
  });

  it('refuses a chunked answer it cannot read', async () => {
    const base = await serve((_req, _body, res) => {
      res.write('part');
      res.end();
    });
    const result = await measurePaced(
      { url: `${base}/`, method: 'GET', headers: {} },
      { requestsPerSecond: 20, durationSeconds: 0.1, connections: 1 },
    );
    expect(result.errorCodes).toEqual({ CHUNKED_ANSWER: 2 });
  });
});
