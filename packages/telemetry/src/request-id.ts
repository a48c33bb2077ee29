import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request id (`X-Request-Id`) of the work now running: an HTTP request in the gateway, a
 * job in a worker (the id of the request that enqueued it). Log lines carry it, and the queue's
 * producer writes it into every job it adds, so one id follows a request into its jobs whether
 * or not tracing is on (docs/decisions.md#request-ids-and-traces-across-the-queue).
 */
const requestIds = new AsyncLocalStorage<string>();

/** Runs `work` with `requestId` as the current request id (none: runs it as it is). */
export function withRequestId<T>(requestId: string | undefined, work: () => T): T {
  return requestId === undefined ? work() : requestIds.run(requestId, work);
}

export function currentRequestId(): string | undefined {
  return requestIds.getStore();
}
