import { text } from 'node:stream/consumers';
import type { WebhookBody } from '@switchboard/contracts';
import type { Logger } from '@switchboard/logger';
import type { Storage } from '@switchboard/storage';

/** A delivery's body: the JSON value, or not found when its claim-checked object is gone. */
export type LoadedBody = { found: true; value: unknown } | { found: false };

/**
 * The body the gateway accepted: in the job, or read back from S3 (claim check). A body that
 * is not valid JSON cannot become valid on a retry: it throws a SyntaxError,
 * which the caller treats as permanent.
 */
export async function loadBody(storage: Storage, body: WebhookBody): Promise<LoadedBody> {
  if (body.kind === 'json') return { found: true, value: JSON.parse(body.text) };
  if (body.kind === 'inline') return { found: true, value: body.value };
  const stream = await storage.getObjectStream(body.key);
  if (stream === null) return { found: false };
  return { found: true, value: JSON.parse(await text(stream)) };
}

/**
 * Deletes a claim-checked body once the delivery is done with it. Best effort: a leftover
 * object costs storage, not correctness (its key is derived from the message id).
 */
export async function discardBody(storage: Storage, body: WebhookBody, logger: Logger): Promise<void> {
  if (body.kind !== 'stored') return;
  try {
    const result = await storage.deleteObjects([body.key]);
    if (result.errors.length > 0)
      logger.warn({ key: body.key, reason: result.errors[0]?.message }, 'webhook body not deleted');
  } catch (error) {
    logger.warn({ key: body.key, reason: (error as Error).message }, 'webhook body not deleted');
  }
}
