import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { LIMITS } from '@switchboard/contracts';
import { ApiError, closeWithoutReading, declaredBodyBytes, responseLocal } from '@switchboard/http';
import { Gauge, type Registry } from '@switchboard/metrics';

/** Seconds a client refused for lack of memory is told to wait: bodies in flight finish in that time. */
const RETRY_AFTER_SECONDS = 1;

/** A request's share of the budget: what it holds, and more as its body turns out longer. */
export interface BodyReservation {
  /** Takes `bytes` more of the budget; false (nothing taken) when they do not fit. */
  grow(bytes: number): boolean;
}

/** The reservation of a body whose whole size was taken up front: it never needs more. */
const WHOLLY_RESERVED: BodyReservation = { grow: () => true };

const reservationSlot = responseLocal<BodyReservation>(
  'bodyReservation',
  'bodyBudget() must run before the body is read',
);

/**
 * Bytes a request's body takes from the budget before a byte of it is read: its declared size
 * (a declared body is read straight into one buffer of that size, and a flood of them is then
 * admitted whole, in turn, instead of all starting and most failing half read); undefined for
 * a chunked or compressed body, which takes its bytes as they are held (BodyReservation),
 * decoded. Reserving the whole 25 MiB limit for a compressed one let five idle connections,
 * each having sent a 10-byte gzip header, hold the budget of the process.
 */
function declaredReservation(headers: IncomingHttpHeaders): number | undefined {
  const declared = declaredBodyBytes(headers);
  return declared === undefined ? undefined : Math.min(declared, LIMITS.body.inboundWebhookBytes);
}

/** 503 SERVICE_UNAVAILABLE with Retry-After, the connection closed without reading the rest of the body. */
export function refuseForMemory(res: Response): ApiError {
  closeWithoutReading(res);
  return new ApiError('SERVICE_UNAVAILABLE', { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
}

/**
 * One process's share of the gateway's budget: an even split among its GATEWAY_PROCESSES, but
 * never less than one body of the largest size (a smaller share would refuse such a body for
 * good). Each process is a replica of its own, so the gateway's memory is the budget, not the
 * budget times its processes: two processes holding a whole budget each under a flood at a real
 * webhook took far more memory than one
 * (packages/bench/README.md#execution-bodies-under-the-body-flood).
 */
export function processBudgetBytes(gatewayBudgetBytes: number, processes: number): number {
  return Math.max(LIMITS.body.inboundWebhookBytes, Math.floor(gatewayBudgetBytes / processes));
}

/**
 * Admits a request only when its body fits in what is left of `budgetBytes` for this process,
 * and gives the bytes back when its response is done (or its connection closed). Refused: 503
 * SERVICE_UNAVAILABLE with Retry-After, before a byte of the body is read. A chunked or
 * compressed body grows its reservation as it is read (`bodyReservationOf`), and is refused
 * the same way once it no longer fits. Runs after the webhook's token was checked, so only a
 * holder of a token takes from the budget, and the body-read timeouts bound how long a body
 * that stopped arriving holds what it took.
 */
export function bodyBudget(budgetBytes: number, registry: Registry): RequestHandler {
  let inFlight = 0;
  exportBudget(registry, budgetBytes, () => inFlight);
  return (req, res, next) => {
    const declared = declaredReservation(req.headers);
    const upFront = declared ?? 0;
    if (inFlight + upFront > budgetBytes) throw refuseForMemory(res);
    inFlight += upFront;
    let held = upFront;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      inFlight -= held;
    };
    // Only a body of undeclared size grows (its closure is made only then); a declared one
    // holds all it can take already.
    const reservation: BodyReservation =
      declared !== undefined
        ? WHOLLY_RESERVED
        : {
            grow: (bytes) => {
              if (released || inFlight + bytes > budgetBytes) return false;
              inFlight += bytes;
              held += bytes;
              return true;
            },
          };
    reservationSlot.set(res, reservation);
    res.once('finish', release);
    res.once('close', release);
    next();
  };
}

/**
 * `webhook_body_budget_bytes` on `/metrics`: what the bodies in flight hold and what the process
 * may hold. Held near the limit, deliveries are being refused with 503: more replicas or a
 * larger WEBHOOK_BODY_BUDGET_BYTES.
 */
function exportBudget(registry: Registry, budgetBytes: number, held: () => number): void {
  new Gauge({
    name: 'webhook_body_budget_bytes',
    help: 'Bytes of execution bodies this gateway process admits at once: state="held" by bodies in flight, state="limit" its share of WEBHOOK_BODY_BUDGET_BYTES.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'held' }, held());
      this.set({ state: 'limit' }, budgetBytes);
    },
  });
}

/** The reservation `bodyBudget` made for this request. */
export function bodyReservationOf(res: Response): BodyReservation {
  return reservationSlot.get(res);
}
