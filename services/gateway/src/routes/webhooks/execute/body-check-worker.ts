// A parse thread of the execution routes (body-check.ts): decodes a large body and runs its
// format's checks off the event loop, then hands the bytes back when they passed.
import { parentPort } from 'node:worker_threads';
import type { WebhookFormat } from '@switchboard/contracts';
import { isApiError } from '@switchboard/http';
import { decodeBody, type BodyKind } from './decode.ts';
import { FORMATS } from './formats.ts';
import type { CheckOutcome, CheckReply, CheckRequest, Refusal } from './body-check.ts';

function refusalOf(error: unknown): Refusal {
  if (!isApiError(error)) throw error;
  return { code: error.code, message: error.message, ...(error.errors ? { errors: error.errors } : {}) };
}

function check(format: WebhookFormat, kind: BodyKind, bytes: ArrayBuffer): CheckOutcome {
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
    // A JSON body's text is its bytes, which go back anyway: only a form's JSON is new text.
    return { outcome: 'valid', json: kind === 'form' ? decoded.json : null, refusal };
  } catch (error) {
    return { outcome: 'invalid', refusal: refusalOf(error) };
  }
}

parentPort!.on('message', ({ id, format, kind, bytes }: CheckRequest) => {
  let outcome: CheckOutcome;
  try {
    outcome = check(format, kind, bytes);
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
