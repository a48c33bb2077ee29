import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import express, { type Express } from 'express';
import { Redis, type RedisOptions } from 'ioredis';

export interface RunningApp {
  url: string;
  close(): Promise<void>;
}

/** An express 5 app on an ephemeral port of the given interface. */
export async function startApp(configure: (app: Express) => void, host = '127.0.0.1'): Promise<RunningApp> {
  const app = express();
  configure(app);
  const server = app.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A client like the gateway's request-path client: fails fast when Redis is away. */
export function requestPathRedis(url: string, extra: RedisOptions = {}): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, ...extra });
  client.on('error', () => {});
  return client;
}

/** As requestPathRedis, once connected (a gateway listens only after its clients are up). */
export async function readyRedis(url: string): Promise<Redis> {
  const client = requestPathRedis(url);
  if (client.status !== 'ready') await once(client, 'ready');
  return client;
}

/** Redis server time in microseconds: the clock the limiter decides by. */
export async function redisMicros(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1_000_000 + Number(micros);
}

/** A port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP server that accepts connections and never answers: a hung Redis. */
export async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

export async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('application/json') ?? false;
  return { status: response.status, headers: response.headers, body: isJson ? JSON.parse(text) : text };
}

export function header(answer: Answer, name: string): string | null {
  return answer.headers.get(name);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
