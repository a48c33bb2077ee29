import { once } from 'node:events';
import type { Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';

/** Anything that listens like an express app: `app.listen(port, host)` gives an HTTP server. */
export interface Listenable {
  listen(port: number, hostname: string): HttpServer;
}

export interface ServedApp {
  url: string;
  port: number;
  server: HttpServer;
  /** Drops keep-alive connections, then waits for the server to close. */
  close(): Promise<void>;
}

/** Listens on an ephemeral port of `host` (an IPv6 host is bracketed in the URL). */
export async function serveOnFreePort(app: Listenable, host = '127.0.0.1'): Promise<ServedApp> {
  const server = app.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port with nothing listening on it: connecting is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface SilentServer {
  port: number;
  /** Connections accepted so far: a test waits for one instead of sleeping. */
  connections(): number;
  close(): Promise<void>;
}

/** A TCP server that accepts connections and never answers: a hung dependency. */
export async function silentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => accepted,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
