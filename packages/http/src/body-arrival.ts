import type { Request } from 'express';

/** How long a body may take to arrive: in all, and without a byte. */
export interface BodyTimeouts {
  /** From when reading starts to the body's last byte. */
  totalMs: number;
  /** Between two chunks (and before the first): a sender that stalls is cut this long after its last byte. */
  idleMs: number;
}

/**
 * Calls `expire` once when the body of `req` takes longer than `totalMs` in all or goes
 * `idleMs` without a byte, unless the returned stop() came first. Without it, a body that
 * stops arriving holds its connection and its share of the body budget until Node's own
 * request timeout (minutes). One timer per body, re-armed only when it fires while chunks are
 * still coming, so a chunk costs one clock read.
 */
export function watchBodyArrival(req: Request, { totalMs, idleMs }: BodyTimeouts, expire: () => void): () => void {
  const started = performance.now();
  let lastChunkAt = started;
  const onData = () => {
    lastChunkAt = performance.now();
  };
  const check = () => {
    const now = performance.now();
    const due = Math.min(started + totalMs, lastChunkAt + idleMs);
    if (now < due) {
      timer = setTimeout(check, due - now);
      return;
    }
    stop();
    expire();
  };
  let timer = setTimeout(check, Math.min(totalMs, idleMs));
  const stop = () => {
    clearTimeout(timer);
    req.off('data', onData);
  };
  req.on('data', onData);
  return stop;
}
