import express from 'express';
import type { AddressInfo } from 'node:net';
import { z } from '@switchboard/config';

/**
 * The baseline: a bare express 5 server in its own process (as the gateway is), answering
 * every request with the exact bytes and headers it is sent over IPC. Whatever the gateway
 * adds on top of this is the cost being measured.
 */
const responseSchema = z.object({
  status: z.number().int().min(200).max(599),
  headers: z.record(z.string(), z.string()),
  bodyBase64: z.string(),
});

process.once('message', (message: unknown) => {
  const response = responseSchema.parse(message);
  const body = Buffer.from(response.bodyBase64, 'base64');
  const headers = { ...response.headers, 'content-length': String(body.length) };
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use((_req, res) => {
    res.writeHead(response.status, headers).end(body);
  });
  const server = app.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
  // The harness may vanish without a signal (killed); do not outlive it.
  process.once('disconnect', () => process.exit(0));
});
