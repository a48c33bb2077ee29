import type { AddressInfo } from 'node:net';
import express from 'express';

/**
 * The bare express 5 baseline for ingest, in its own process as the gateway is: it reads and
 * parses the same JSON body (same 25 MiB limit) and answers 204. Whatever the gateway does
 * beyond that (rate limiter, path checks, token lookup, enqueue) is what the
 * ratio prices.
 */
process.once('message', () => {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(express.json({ limit: 25 * 1024 * 1024 }));
  app.use((req, res) => {
    res.status(typeof req.body === 'object' ? 204 : 400).end();
  });
  const server = app.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
  // The harness may vanish without a signal (killed); do not outlive it.
  process.once('disconnect', () => process.exit(0));
});
