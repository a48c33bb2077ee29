import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { LIMITS } from '@switchboard/contracts';
import { ApiError, closeWithoutReading, declaredBodyBytes } from '@switchboard/http';

/** Seconds a client refused for lack of memory is told to wait: bodies in flight finish in that time. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Bytes a request's body may take once read: its declared size, or the whole limit when the
 * size is not known in advance (chunked) or may grow (Content-Encoding inflates).
 */
function bytesToReserve(headers: IncomingHttpHeaders): number {
  return Math.min(declaredBodyBytes(headers) ?? LIMITS.body.inboundWebhookBytes, LIMITS.body.inboundWebhookBytes);
}

/**
 * Admits a request only when its body fits in what is left of `budgetBytes` for this process,
 * and gives the bytes back when its response is done (or its connection closed). Refused: 503
 * SERVICE_UNAVAILABLE with Retry-After, before a byte of the body is read.
 */
export function bodyBudget(budgetBytes: number): RequestHandler {
  let inFlight = 0;
  return (req, res, next) => {
    const bytes = bytesToReserve(req.headers);
    if (inFlight + bytes > budgetBytes) {
      // The unread body must not be kept: answer, then close the connection without reading it.
      closeWithoutReading(res);
      throw new ApiError('SERVICE_UNAVAILABLE', { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
    }
    inFlight += bytes;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      inFlight -= bytes;
    };
    res.once('finish', release);
    res.once('close', release);
    next();
  };
}
