import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnNode } from '@switchboard/testkit/processes';
import { waitFor } from '@switchboard/testkit/wait';
import { autocannonLoad, pacedLoad } from '../src/load-generator.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A loopback address:port as /proc/net/tcp writes it. */
function procAddress(port: number): string {
  return `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Whether this process holds the client's end of the established loopback connection from
 * `clientPort` to `serverPort`: that socket's inode (/proc/net/tcp) among our descriptors. The
 * server's end is excluded by the direction, a closed earlier connection on the same port
 * (TIME_WAIT, no inode) by the state.
 */
function ownsClientSocket(clientPort: number, serverPort: number): boolean {
  const row = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find(
      (fields) => fields[1] === procAddress(clientPort) && fields[2] === procAddress(serverPort) && fields[3] === '01',
    );
  if (!row) throw new Error(`no established connection from port ${clientPort} to ${serverPort}`);
  const socket = `socket:[${row[9]}]`;
  return readdirSync('/proc/self/fd').some((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === socket;
    } catch {
      return false; // closed meanwhile
    }
  });
}

interface Seen {
  method?: string;
  url?: string;
  delivery?: string;
  body: string;
  /** Whether the client's end of its connection is a socket of this process. */
  sentFromHere: boolean;
}

/** A real HTTP server that records every request and answers 204; its base URL. */
async function recordingServer(seen: Seen[]): Promise<string> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        delivery: req.headers['x-delivery'] as string,
        body: Buffer.concat(chunks).toString(),
        sentFromHere: ownsClientSocket(req.socket.remotePort!, req.socket.localPort!),
      });
      res.writeHead(204).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the load generator', () => {
  it('sends an autocannon run from a process of its own: every request whole, a fresh unique header each', async () => {
    const seen: Seen[] = [];
    const base = await recordingServer(seen);
    const body = JSON.stringify({ text: 'é'.repeat(2000) });
    const run = {
      url: `${base}/hooks/1`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body,
      uniqueHeader: 'x-delivery',
      connections: 3,
    };

    const measurement = await autocannonLoad({ ...run, amount: 150 });

    expect(measurement.requests).toBe(150);
    expect(measurement.statusCodes).toEqual({ 204: 150 });
    expect(measurement.non2xx).toBe(0);
    expect(seen).toHaveLength(150);
    expect(new Set(seen.map((request) => request.delivery)).size).toBe(150);
    for (const request of seen)
      expect(request).toMatchObject({ method: 'POST', url: '/hooks/1', body, sentFromHere: false });
    // The check tells the two apart: a request from this process is seen as one.
    await fetch(`${base}/hooks/2`, { method: 'POST', body });
    expect(seen.at(-1)).toMatchObject({ url: '/hooks/2', sentFromHere: true });
  });

  it('sends a paced load from there too, and fails with the reason a load could not run', async () => {
    const seen: Seen[] = [];
    const base = await recordingServer(seen);

    const measurement = await pacedLoad(
      { url: `${base}/`, method: 'GET', headers: {} },
      { requestsPerSecond: 100, durationSeconds: 0.5, connections: 2 },
    );

    expect(measurement.requests).toBe(50);
    expect(seen).toHaveLength(50);
    expect(seen.every((request) => !request.sentFromHere)).toBe(true);
    const https = pacedLoad(
      { url: base.replace('http:', 'https:'), method: 'GET', headers: {} },
      { requestsPerSecond: 10, durationSeconds: 0.1, connections: 1 },
    );
    await expect(https).rejects.toThrow(/load generator: Error: measurePaced sends plain HTTP only, not https:/);
  });

  it('does not hold its harness open once the loads are done', async () => {
    const harness = spawnNode(new URL('./fixtures/one-load.ts', import.meta.url).pathname, { env: {} });
    // Starting node and the generator's process is slow on a busy machine and is not what is
    // tested: the clock for ending starts once the load is done and its count printed.
    const printed = async () => harness.stdout().includes('\n') || harness.child.exitCode !== null;
    await waitFor(printed, 45_000, 50);
    const ended = await Promise.race([harness.exit, sleep(10_000, 'still running')]);
    await harness.stop('SIGKILL');
    expect(ended, harness.output()).toEqual({ code: 0, signal: null });
    expect(harness.stdout().trim()).toBe('20');
  });
});
