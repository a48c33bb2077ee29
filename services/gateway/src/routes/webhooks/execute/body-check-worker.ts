// A parse thread of the execution routes (body-check.ts): decodes a large body and runs its
// format's checks off the event loop, then hands the bytes back when they passed.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { CheckOutcome, CheckReply, CheckRequest, Refusal } from './body-check.ts';

function refusalOf(error: unknown): Refusal {
  if (!isApiError(error)) throw error;
  return { code: error.code, message: error.message, ...(error.errors ? { errors: error.errors } : {}) };
}

function check({ format, kind, fields, bytes }: CheckRequest): CheckOutcome {
  try {
    const decoded = decodeBody(format, kind, Buffer.from(bytes));
    const execution = FORMATS[format];
    const parsed = execution.parse(decoded.value);
    let refusal: Refusal | null = null;
    try {
      execution.accept?.(parsed);
    } catch (error) {
      refusal = refusalOf(error);
    }
    // What the job delivers: the part the transformer reads (a large push's file lists and
    // repository URLs never reach the queue, nor S3), else a form's JSON; a JSON body's own
    // text is its bytes, which go back anyway.
    if (refusal === null && execution.readPart) {
      return { outcome: 'valid', json: JSON.stringify(execution.readPart(decoded.value, fields)), refusal };
    }
    return { outcome: 'valid', json: kind === 'form' ? decoded.json : null, refusal };
  } catch (error) {
    return { outcome: 'invalid', refusal: refusalOf(error) };
  }
}

/**
 * The nice value of this thread: parsing waits while an event loop wants the core. One parse
 * thread per process on two cores left one core to the event loop; with a process per core
 * (GATEWAY_PROCESSES) the parse threads would take every core on equal terms with the event
 * loops that answer /healthz and every other request. (Under the fault suite's flood the worst
 * /healthz moved within its noise either way: there the event loops' own reading of the bodies
 * weighs more; packages/bench/README.md#execution-bodies-under-the-body-flood.)
 */
const PARSE_THREAD_NICE = 10;

/**
 * Lowers this thread's priority alone. On Linux the nice value belongs to the thread and
 * setpriority takes a thread id (/proc/thread-self names it); the event loop's thread, whose
 * id is the process id, keeps its own. Elsewhere the thread keeps the process's priority.
 */
function yieldToEventLoops(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (Number.isInteger(threadId) && threadId !== process.pid) setPriority(threadId, PARSE_THREAD_NICE);
  } catch {
    // Not Linux, or not allowed: parsing still runs off the event loop, at the same priority.
  }
}

// Lowered once the formats' modules are loaded: at nice 10 beside busy processes of the
// machine, loading them took long enough to run into WEBHOOK_PARSE_TIMEOUT_MS.
const { isApiError } = await import('@switchboard/http/errors');
const { decodeBody } = await import('./decode.ts');
const { FORMATS } = await import('./formats.ts');
const { THREAD_READY } = await import('./body-check.ts');
yieldToEventLoops();

parentPort!.on('message', (request: CheckRequest) => {
  const { id, bytes } = request;
  let outcome: CheckOutcome;
  try {
    outcome = check(request);
  } catch (error) {
    outcome = { outcome: 'crashed', reason: error instanceof Error ? error.message : String(error) };
  }
  // Only a body that passed goes back (CheckReply says why).
  if (outcome.outcome === 'valid') parentPort!.postMessage({ id, bytes, ...outcome } satisfies CheckReply, [bytes]);
  else {
    parentPort!.postMessage({ id, ...outcome } satisfies CheckReply);
    // Detaching frees the bytes now rather than at this thread's next full collection: a flood
    // of refused 25 MiB bodies otherwise stays resident until V8 gets round to it.
    bytes.transfer(0);
  }
});

// Modules loaded: checks sent from now on start at once.
parentPort!.postMessage(THREAD_READY);
