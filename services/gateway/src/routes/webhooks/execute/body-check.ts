import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ErrorCode, ValidationErrorItem, WebhookFormat } from '@switchboard/contracts';
import { ApiError } from '@switchboard/http/errors';
import type { Logger } from '@switchboard/logger';
import type { BodyKind } from './decode.ts';
import type { FormatFields } from './formats.ts';

/** A 4xx a check found, as it crosses the thread boundary (an ApiError is not cloneable). */
export interface Refusal {
  code: ErrorCode;
  message: string;
  errors?: ValidationErrorItem[];
}

export interface CheckRequest {
  id: number;
  format: WebhookFormat;
  kind: BodyKind;
  /** The job fields of the request (the event a code-host part depends on). */
  fields: FormatFields;
  /** The body's bytes, transferred to the thread (never copied); back only when it passed. */
  bytes: ArrayBuffer;
}

/** What a parse thread found, without the request's id (and, for a valid body, its bytes). */
export type CheckOutcome =
  /** `json`: the text the job delivers when it is not the bytes themselves (a form's payload, or the part its transformer reads). */
  | { outcome: 'valid'; json: string | null; refusal: Refusal | null }
  | { outcome: 'invalid'; refusal: Refusal }
  | { outcome: 'crashed'; reason: string };

/**
 * A refused body's bytes stay on the thread and are freed there: nothing reads them again, and
 * every large buffer the event loop adopts counts towards the external memory that makes V8 run
 * full collections on it (a flood of refused 25 MiB bodies: one each 64 MB).
 */
export type CheckReply = { id: number } & (
  | (Extract<CheckOutcome, { outcome: 'valid' }> & { bytes: ArrayBuffer })
  | Exclude<CheckOutcome, { outcome: 'valid' }>
);

/** A body that decoded and passed its format's schema. */
export interface CheckedBody {
  raw: Buffer;
  /**
   * The document the job delivers (inline, or through S3 when large): `raw` itself for JSON,
   * the payload re-serialised for forms, the part its transformer reads for formats with one.
   */
  json: Buffer | string;
  /** What the format's post-token check (emptiness, limits) refused, answered after the token check. */
  refusal: Refusal | null;
}

export interface BodyChecker {
  /** Decodes and validates `raw` on a parse thread; a refusal (400) is thrown as an ApiError. */
  check(format: WebhookFormat, kind: BodyKind, raw: Buffer, fields: FormatFields): Promise<CheckedBody>;
  close(): Promise<void>;
}

/** A parse thread's heap: a 25 MiB body of the costliest shape needs well under this. */
const THREAD_HEAP_MB = 512;
/** Threads beyond the warm one stop after this long without a large body. */
const IDLE_STOP_MS = 30_000;
const WORKER_SCRIPT = new URL('./body-check-worker.ts', import.meta.url);

export function refusalError(refusal: Refusal): ApiError {
  return new ApiError(refusal.code, {
    message: refusal.message,
    ...(refusal.errors ? { errors: refusal.errors } : {}),
  });
}

/** The body's own ArrayBuffer, to transfer; a copy when the Buffer is a view into a larger one. */
function ownBuffer(raw: Buffer): ArrayBuffer {
  if (raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength && raw.buffer instanceof ArrayBuffer)
    return raw.buffer;
  return raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength) as ArrayBuffer;
}

interface Pending {
  thread: Thread;
  resolve(value: CheckedBody): void;
  reject(reason: unknown): void;
  timer: NodeJS.Timeout;
}

interface Thread {
  worker: Worker;
  /** Its modules are loaded: a check sent now starts at once. */
  ready: boolean;
  /** Checks sent to it and not yet answered. */
  pending: number;
}

/** The first message of a parse thread, once its modules are loaded. */
export const THREAD_READY = 'ready';

/** A parse thread's messages: THREAD_READY once, then a reply per check. */
export type ThreadMessage = typeof THREAD_READY | CheckReply;

/** The ready thread with the fewest checks in hand, else (none ready yet) the least busy. */
function leastBusy(threads: Thread[]): Thread {
  let best = threads[0]!;
  for (const thread of threads) {
    if (thread.ready !== best.ready ? thread.ready : thread.pending < best.pending) best = thread;
  }
  return best;
}

/**
 * Parse threads for large execution bodies. JSON.parse of a 25 MiB body of the costliest shape
 * holds a thread for a long stretch
 * (packages/bench/README.md#execution-bodies-under-the-body-flood); on the event loop that would
 * stall every other request (health checks included) for as long. Here the event loop only moves
 * the bytes (a transfer, not a copy); a body nobody may post (an unknown webhook) is never parsed
 * on it at all.
 *
 * One thread starts with the checker and stays until `stopWhen` says the app is done: starting
 * one means loading the formats' modules, which on a busy machine took seconds, and a large body
 * must not wait for that. More start with the first large body and stop when none came for a
 * while (most replicas rarely see one). A check goes to the ready thread with the fewest in
 * hand. One that has no answer within `timeoutMs` is answered 503 with Retry-After (its late
 * answer is dropped); a thread that dies (out of its heap) fails its checks with 503 and is
 * replaced.
 */
export function createBodyChecker({
  threads = Math.min(4, Math.max(1, availableParallelism() - 1)),
  timeoutMs,
  logger,
  stopWhen = () => false,
}: {
  threads?: number;
  /** WEBHOOK_PARSE_TIMEOUT_MS. */
  timeoutMs: number;
  logger: Logger;
  /** Checked now and then: true once the app is done (its pool ended), to stop every thread. */
  stopWhen?: () => boolean;
}): BodyChecker {
  const pending = new Map<number, Pending>();
  let running: Thread[] = [];
  let nextId = 0;
  let closing = false;
  let lastCheckAt = 0;

  const start = (): Thread => {
    const worker = new Worker(WORKER_SCRIPT, { resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    const thread: Thread = { worker, ready: false, pending: 0 };
    worker.unref();
    worker.on('message', (message: ThreadMessage) => {
      if (message === THREAD_READY) thread.ready = true;
      else settle(message);
    });
    worker.on('error', (error) => logger.error({ reason: error.message }, 'body parse thread failed'));
    worker.on('exit', () => {
      const index = running.indexOf(thread);
      if (closing || index === -1) return;
      for (const [id, waiter] of pending) {
        if (waiter.thread !== thread) continue;
        forget(id, waiter);
        waiter.reject(new ApiError('SERVICE_UNAVAILABLE'));
      }
      running[index] = start();
    });
    return thread;
  };

  /** Stops every thread but the first, which stays warm. */
  const stopExtra = async () => {
    const stopping = running.slice(1);
    running = running.slice(0, 1);
    await Promise.all(stopping.map(({ worker }) => worker.terminate()));
  };

  const forget = (id: number, waiter: Pending) => {
    pending.delete(id);
    clearTimeout(waiter.timer);
    waiter.thread.pending -= 1;
  };

  function settle(reply: CheckReply): void {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    forget(reply.id, waiter);
    if (reply.outcome === 'valid') {
      const raw = Buffer.from(reply.bytes);
      waiter.resolve({ raw, json: reply.json ?? raw, refusal: reply.refusal });
    } else if (reply.outcome === 'invalid') waiter.reject(refusalError(reply.refusal));
    else waiter.reject(new Error(`body check failed: ${reply.reason}`));
  }

  running = [start()];

  const checker: BodyChecker = {
    check(format, kind, raw, fields) {
      return new Promise<CheckedBody>((resolve, reject) => {
        lastCheckAt = Date.now();
        while (running.length < threads) running.push(start());
        const id = nextId++;
        const thread = leastBusy(running);
        thread.pending += 1;
        const timer = setTimeout(() => {
          const waiter = pending.get(id);
          if (!waiter) return;
          forget(id, waiter);
          logger.warn({ timeoutMs }, 'body parse thread did not answer in time');
          reject(new ApiError('SERVICE_UNAVAILABLE'));
        }, timeoutMs).unref();
        pending.set(id, { thread, resolve, reject, timer });
        const bytes = ownBuffer(raw);
        const request: CheckRequest = { id, format, kind, fields, bytes };
        thread.worker.postMessage(request, [bytes]);
      });
    },
    async close() {
      closing = true;
      clearInterval(tidying);
      for (const [id, waiter] of pending) {
        forget(id, waiter);
        waiter.reject(new ApiError('SERVICE_UNAVAILABLE'));
      }
      const stopping = running;
      running = [];
      await Promise.all(stopping.map(({ worker }) => worker.terminate()));
    },
  };
  const tidying = setInterval(() => {
    if (stopWhen()) void checker.close();
    else if (pending.size === 0 && Date.now() - lastCheckAt >= IDLE_STOP_MS) void stopExtra();
  }, IDLE_STOP_MS).unref();
  return checker;
}
