import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../src/fault-proxy.ts';
import { waitFor } from '../src/wait.ts';

/** How long "nothing comes back" is watched for: a negative can only be observed over a window. */
const SILENCE_WINDOW_MS = 300;

let echo: Server;
let echoPort: number;
const echoed = new Set<Socket>();
let proxy: FaultProxy;
const clients: Socket[] = [];

beforeAll(async () => {
  echo = createServer((socket) => {
    echoed.add(socket);
    socket.on('error', () => {});
    socket.pipe(socket);
  }).listen(0, '127.0.0.1');
  await once(echo, 'listening');
  echoPort = (echo.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of echoed) socket.destroy();
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy();
  await proxy?.close();
});

interface Client {
  socket: Socket;
  received(): string;
  /** Resolves with the error the socket ended with (undefined for a clean close). */
  closed: Promise<Error | undefined>;
  isClosed(): boolean;
}

async function openClient(): Promise<Client> {
  const socket = connect(proxy.port, proxy.host);
  clients.push(socket);
  let received = '';
  let error: Error | undefined;
  let isClosed = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', (cause) => (error = cause));
  // Not events.once, which rejects on the 'error' a reset emits first.
  const closed = new Promise<Error | undefined>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      resolve(error);
    }),
  );
  // A reset connection may close before 'connect' is seen: either way it is the test's to inspect.
  await Promise.race([new Promise((resolve) => socket.once('connect', resolve)), closed]);
  return { socket, received: () => received, closed, isClosed: () => isClosed };
}

async function echoes(client: Client, text: string): Promise<void> {
  const before = client.received().length;
  client.socket.write(text);
  await waitFor(async () => client.received().slice(before) === text, 5_000);
}

describe('fault proxy', () => {
  it('pass: pipes both ways to the target', async () => {
    proxy = await startFaultProxy({ host: '127.0.0.1', port: echoPort });
    const client = await openClient();
    await echoes(client, 'hello');
    await echoes(client, 'again');
    expect(proxy.openConnections()).toBe(1);
  });

  it('cut: resets open connections and new ones until passed again', async () => {
    proxy = await startFaultProxy({ host: '127.0.0.1', port: echoPort });
    const open = await openClient();
    await echoes(open, 'before');

    proxy.setMode('cut');
    expect(((await open.closed) as NodeJS.ErrnoException | undefined)?.code).toBe('ECONNRESET');
    const refused = await openClient();
    refused.socket.write('anyone?');
    expect(((await refused.closed) as NodeJS.ErrnoException | undefined)?.code).toMatch(/^(ECONNRESET|EPIPE)$/);
    expect(refused.received()).toBe('');

    proxy.setMode('pass');
    await echoes(await openClient(), 'after');
  });

  it('blackhole: connections stay open and silent; back in pass, held bytes arrive and new connections work', async () => {
    proxy = await startFaultProxy({ host: '127.0.0.1', port: echoPort });
    const open = await openClient();
    await echoes(open, 'before');

    proxy.setMode('blackhole');
    open.socket.write('held');
    const accepted = await openClient();
    accepted.socket.write('queued');
    await sleep(SILENCE_WINDOW_MS);
    expect(open.received()).toBe('before');
    expect(accepted.received()).toBe('');
    expect(open.isClosed() || accepted.isClosed()).toBe(false);
    expect(proxy.openConnections()).toBe(2);

    proxy.setMode('pass');
    await echoes(await openClient(), 'fresh');
    // As after a healed partition or a SIGCONT: what waited is delivered, the connections carry on.
    await waitFor(async () => open.received() === 'beforeheld' && accepted.received() === 'queued', 5_000);
    await echoes(open, 'still');
  });

  it('strandOpenConnections: open connections go silent for good, through any mode; new ones pass', async () => {
    proxy = await startFaultProxy({ host: '127.0.0.1', port: echoPort });
    const open = await openClient();
    await echoes(open, 'before');

    proxy.strandOpenConnections();
    open.socket.write('lost');
    await echoes(await openClient(), 'fresh');
    proxy.setMode('blackhole');
    proxy.setMode('pass');
    await sleep(SILENCE_WINDOW_MS);
    expect(open.received()).toBe('before');
    expect(open.isClosed()).toBe(false);
  });

  it('urlFor: points a URL at the proxy, keeping the rest', async () => {
    proxy = await startFaultProxy({ host: '127.0.0.1', port: echoPort });
    expect(proxy.urlFor('postgres://postgres@db.internal:5432/test')).toBe(
      `postgres://postgres@127.0.0.1:${proxy.port}/test`,
    );
    expect(proxy.urlFor('redis://127.0.0.1:6379')).toBe(`redis://127.0.0.1:${proxy.port}`);
    expect(proxy.urlFor('http://127.0.0.1:9000')).toBe(`http://127.0.0.1:${proxy.port}`);
  });
});
