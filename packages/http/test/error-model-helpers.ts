import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express, { type Express } from 'express';
import { pino, type Logger } from 'pino';

export interface CapturedLogger {
  logger: Logger;
  lines(): Array<Record<string, unknown>>;
}

/** A real pino logger whose JSON lines are kept for assertions. */
export function captureLogger(): CapturedLogger {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines: () => lines };
}

export interface RunningApp {
  url: string;
  close(): Promise<void>;
}

export async function listen(configure: (app: Express) => void): Promise<RunningApp> {
  const app = express();
  configure(app);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown> | undefined;
}

export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('application/json') ?? false;
  return { status: response.status, headers: response.headers, text, json: isJson ? JSON.parse(text) : undefined };
}
