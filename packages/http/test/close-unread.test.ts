import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedApp } from '@switchboard/testkit/network';
import { closeWithoutReading } from '../src/index.ts';
import { startApp } from './start-app.ts';

const DECLARED_BYTES = 200 * 1024 * 1024;
const LINGER_MS = 500;
const REFUSAL = '{"code":"SERVICE_UNAVAILABLE"}';

let app: ServedApp;
/** Body bytes the server's sockets received (read from the kernel), all requests together. */
let bytesRead = 0;

beforeAll(async () => {
  app = await startApp((express) => {
    express.post('/upload', (req, res) => {
      req.socket.on('data', (chunk: Buffer) => (bytesRead += chunk.length));
      closeWithoutReading(res, LINGER_MS);
      // Answered a little later, as after a rate-limit check: the client is sending by then.
      setTimeout(() => res.status(503).type('application/json').send(REFUSAL), 20);
    });
  });
});

afterAll(() => app.close());

/**
 * Sends headers declaring a 200 MiB body, then body bytes as fast as the socket takes them.
 * Half-open, as an uploading HTTP client is: the server's FIN does not stop it sending. With
 * net's default a write after that FIN fails at once and the client itself closes the
 * connection, before the linger (now and then, on a busy machine).
 */
function upload(): { socket: Socket; answer: Promise<string>; closed: Promise<number> } {
  const socket = connect({ port: app.port, host: '127.0.0.1', allowHalfOpen: true });
  const started = performance.now();
  socket.write(
    `POST /upload HTTP/1.1\r\nHost: test\r\nContent-Type: application/octet-stream\r\nContent-Length: ${DECLARED_BYTES}\r\n\r\n`,
  );
  const chunk = Buffer.alloc(256 * 1024, 'a');
  const send = () => {
    while (!socket.destroyed && socket.write(chunk));
  };
  socket.on('drain', send);
  socket.on('error', () => {});
  send();
  let received = '';
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
      if (received.endsWith(REFUSAL)) resolve(received);
    });
  });
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - started)));
  return { socket, answer, closed };
}

describe('closeWithoutReading', () => {
  it('answers an upload it refuses, reads almost none of the body, and closes the connection after the linger', async () => {
    const uploads = Array.from({ length: 4 }, upload);
    const answers = await Promise.all(uploads.map((sent) => sent.answer));
    for (const answer of answers) {
      expect(answer.startsWith('HTTP/1.1 503')).toBe(true);
      expect(answer.toLowerCase()).toContain('connection: close');
    }
    const closedAfterMs = await Promise.all(uploads.map((sent) => sent.closed));
    for (const ms of closedAfterMs) expect(ms).toBeGreaterThanOrEqual(LINGER_MS);
    // Without the pause the server would read everything sent before the close: hundreds of MiB.
    expect(bytesRead).toBeLessThan(4 * 16 * 1024 * 1024);
  });
});
