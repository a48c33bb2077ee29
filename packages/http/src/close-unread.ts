import type { Socket } from 'node:net';
import type { Response } from 'express';

/** How long the connection of a refused upload stays open, unread, after the answer. */
export const UNREAD_BODY_LINGER_MS = 2_000;

/**
 * Answers a request without reading the rest of its body (a body refused for its size, or one
 * the process has no room for): the answer goes out with `Connection: close`, then the
 * connection stops reading, its sending side is closed, and it is destroyed `lingerMs` later,
 * or sooner when the client closes it.
 *
 * Node's own `Connection: close` handling destroys the socket as soon as the answer is written.
 * A client still sending its body then gets a reset, and one whose next write fails (EPIPE) may
 * never read the answer already on its way: Node's http client reports the write error instead
 * (seen under the body flood: packages/bench/README.md#execution-bodies-under-the-body-flood).
 * Reading stops, so the rest of the body costs the process nothing: the client is held by TCP
 * flow control until the close.
 */
export function closeWithoutReading(res: Response, lingerMs = UNREAD_BODY_LINGER_MS): void {
  res.setHeader('Connection', 'close');
  // Node's http server ends a `Connection: close` exchange with socket.destroySoon().
  res.req.socket.destroySoon = function lingeringClose(this: Socket): void {
    this.end();
    // After the server's dump of the unread body, which resumes reading on the next tick.
    setImmediate(() => this.pause());
    const timer = setTimeout(() => this.destroy(), lingerMs).unref();
    this.once('close', () => clearTimeout(timer));
  };
}
