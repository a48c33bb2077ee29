import {
  WEBHOOK_DELIVERY_JOB,
  webhookBodyKey,
  type JsonValue,
  type WebhookBody,
  type WebhookDeliveryInput,
} from '@switchboard/contracts';
import { ApiError } from '@switchboard/http';
import { QueueUnavailableError, type WaitOutcome } from '@switchboard/queue';
import { UploadError } from '@switchboard/storage';
import type { GatewayDeps } from '../../../deps.ts';
import type { InboundBody } from './body.ts';

/** The gateway deps a submission uses, and the size (bytes) above which a body goes through S3. */
export type SubmitDeps = Pick<GatewayDeps, 'storage' | 'producer' | 'logger'> & { inlineBodyMaxBytes: number };

export interface Submission {
  /** The job payload without its body (with the sender's dedupe key, when it sent one). */
  delivery: Omit<WebhookDeliveryInput, 'body'> & { webhookId: string; messageId: string };
  body: InboundBody;
  /** Wait this long for the worker (plain execute with `?wait=true`). */
  waitMs?: number | undefined;
}

export type Submitted = { kind: 'enqueued' } | { kind: 'waited'; outcome: WaitOutcome };

/**
 * Inline when small; else written to S3 under a key derived from the ids (claim check). A body
 * the event loop decoded rides as its parsed value: serialising the value costs less than
 * escaping every quote of its text (packages/bench/README.md#webhook-ingest), the job is
 * smaller, and the worker parses it once instead of twice. One decoded on a parse thread rides
 * as its text, which the event loop then never parses.
 */
async function placeBody(deps: SubmitDeps, { delivery, body }: Submission): Promise<WebhookBody> {
  const bytes = Buffer.byteLength(body.json);
  if (bytes <= deps.inlineBodyMaxBytes) {
    if (!body.checked) return { kind: 'inline', value: body.value as JsonValue };
    // The text parsed as JSON on the parse thread, so it is JSON.
    return { kind: 'json', text: typeof body.json === 'string' ? body.json : body.json.toString('utf8') };
  }
  const key = webhookBodyKey(delivery.webhookId, delivery.messageId);
  await deps.storage.upload(key, body.json, { contentType: 'application/json' });
  return { kind: 'stored', key, bytes };
}

/**
 * Deletes the body a failed submission placed in S3, so nothing is left for a job that does not
 * exist. In the background: the answer does not depend on it, and a slow store would otherwise
 * add its bound to an answer that already spent one on the failure (the sweep removes a body
 * whose delete failed).
 */
function discardPlaced(deps: SubmitDeps, placed: WebhookBody | undefined): void {
  if (placed?.kind !== 'stored') return;
  deps.storage.deleteObjects([placed.key]).catch((error: unknown) => {
    deps.logger.warn({ reason: (error as Error).message }, 'body of a failed webhook submission not deleted');
  });
}

function jobMayExist(error: unknown): boolean {
  return error instanceof QueueUnavailableError && error.jobMayExist;
}

function isUnavailable(error: unknown): boolean {
  return error instanceof QueueUnavailableError || error instanceof UploadError;
}

/**
 * Places the body and enqueues ONE `webhook-delivery` job whose id is the message id; a
 * delivery whose dedupe key an unfinished job holds adds none (the enqueue's claim, see
 * WEBHOOK_DELIVERY_JOB), and its body goes. Redis or S3 away: 503. A body placed in S3 is
 * deleted only when no job can read it: when the enqueue's answer was lost the job may have
 * been added, so the body stays for it (it then posts, and a sender's retry with a dedupe key
 * adds nothing while it is unfinished, or posts nothing after it posted); a body whose job
 * never was is removed by the webhook worker's sweep (WEBHOOK_BODY_SWEEP_JOB).
 */
export async function submitDelivery(deps: SubmitDeps, submission: Submission): Promise<Submitted> {
  const { delivery } = submission;
  let placed: WebhookBody | undefined;
  try {
    placed = await placeBody(deps, submission);
    const payload = { ...delivery, body: placed } as WebhookDeliveryInput;
    if (submission.waitMs === undefined) {
      const { deduplicated } = await deps.producer.enqueue(WEBHOOK_DELIVERY_JOB, payload);
      // A redelivery of a job still unfinished: that job has its own body.
      if (deduplicated) discardPlaced(deps, placed);
      return { kind: 'enqueued' };
    }
    const outcome = await deps.producer.enqueueAndWait(WEBHOOK_DELIVERY_JOB, payload, { timeoutMs: submission.waitMs });
    return { kind: 'waited', outcome };
  } catch (error) {
    if (!jobMayExist(error)) discardPlaced(deps, placed);
    if (isUnavailable(error)) throw new ApiError('SERVICE_UNAVAILABLE', { cause: error });
    throw error;
  }
}
