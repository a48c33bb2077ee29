import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ErrorCode, ValidationErrorItem, WebhookFormat } from '@switchboard/contracts';
import { ApiError } from '@switchboard/http';
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
/** Threads start with the first large body and stop after this long without one. */
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
  worker: Worker;
  resolve(value: CheckedBody): void;
  reject(reason: unknown): void;
}

/**
 * Parse threads for large execution bodies. JSON.parse of a 25 MiB body of the costliest shape
 * holds a thread for a long stretch
 * (packages/bench/README.md#execution-bodies-under-the-body-flood); on the event loop that would
 * stall every other request (health checks included) for as long. Here the event loop only moves
 * the bytes (a transfer, not a copy); a body nobody may post (an unknown webhook) is never parsed
 * on it at all. Threads start with the first large body and stop when none came for a while (most
 * replicas rarely see one); they are taken round-robin; one that dies (out of its heap) fails its
 * checks with 503 and is replaced.
 */
export function createBodyChecker({
  threads = Math.min(4, Math.max(1, availableParallelism() - 1)),
  logger,
}: {
  threads?: number;
  logger: Logger;
}): BodyChecker {
  const pending = new Map<number, Pending>();
  let workers: Worker[] = [];
  let nextId = 0;
  let nextThread = 0;
  let closing = false;
  let idleTimer: NodeJS.Timeout | undefined;

  const start = (): Worker => {
    const worker = new Worker(WORKER_SCRIPT, { resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    worker.unref();
    worker.on('message', (reply: CheckReply) => settle(reply));
    worker.on('error', (error) => logger.error({ reason: error.message }, 'body parse thread failed'));
    worker.on('exit', () => {
      const index = workers.indexOf(worker);
      if (closing || index === -1) return;
      for (const [id, waiter] of pending) {
        if (waiter.worker !== worker) continue;
        pending.delete(id);
        waiter.reject(new ApiError('SERVICE_UNAVAILABLE'));
      }
      workers[index] = start();
    });
    return worker;
  };

  const stopAll = async () => {
    const stopping = workers;
    workers = [];
    await Promise.all(stopping.map((worker) => worker.terminate()));
  };

  function settle(reply: CheckReply): void {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (pending.size === 0) {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => void stopAll(), IDLE_STOP_MS).unref();
    }
    if (reply.outcome === 'valid') {
      const raw = Buffer.from(reply.bytes);
      waiter.resolve({ raw, json: reply.json ?? raw, refusal: reply.refusal });
    } else if (reply.outcome === 'invalid') waiter.reject(refusalError(reply.refusal));
    else waiter.reject(new Error(`body check failed: ${reply.reason}`));
  }

  return {
    check(format, kind, raw, fields) {
      return new Promise<CheckedBody>((resolve, reject) => {
        clearTimeout(idleTimer);
        if (workers.length === 0) workers = Array.from({ length: threads }, start);
        const id = nextId++;
        const worker = workers[nextThread++ % workers.length]!;
        pending.set(id, { worker, resolve, reject });
        const bytes = ownBuffer(raw);
        const request: CheckRequest = { id, format, kind, fields, bytes };
        worker.postMessage(request, [bytes]);
      });
    },
    async close() {
      closing = true;
      clearTimeout(idleTimer);
      await stopAll();
    },
  };
}
