import type { Server, ServerResponse } from 'node:http';
import { InFlight } from '@switchboard/batching';
import type { Logger } from '@switchboard/logger';

export interface DrainOptions {
  /** How long in-flight requests may still run, in milliseconds. */
  timeoutMs: number;
  logger: Logger;
}

/**
 * Tracks in-flight responses of `server` and returns a `drain()` that stops accepting
 * connections and lets those responses finish. Node's `server.close()` alone waits for every
 * keep-alive connection to time out, so drained responses are sent with `Connection: close`
 * and connections that fall idle are closed at once. Resolves true when everything finished
 * in time, false when remaining connections had to be cut.
 */
export function trackForDrain(server: Server, { timeoutMs, logger }: DrainOptions): () => Promise<boolean> {
  // Not a Set: one add and one delete per request churns a hash table (see InFlight).
  const inFlight = new InFlight<ServerResponse>();
  let draining = false;
  server.on('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.on('close', () => {
      inFlight.delete(res);
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
  });

  return () => {
    draining = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    logger.info({ inFlight: inFlight.size, timeoutMs }, 'draining connections');
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        logger.warn({ inFlight: inFlight.size }, 'shutdown timeout reached, closing remaining connections');
        server.closeAllConnections();
        resolve(false);
      }, timeoutMs);
      server.close(() => {
        clearTimeout(timer);
        resolve(true);
      });
      server.closeIdleConnections();
    });
  };
}
