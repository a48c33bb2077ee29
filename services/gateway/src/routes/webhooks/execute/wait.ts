import type { Response } from 'express';
import { presentMessage, webhookDeliveryResultSchema } from '@switchboard/contracts';
import { findMessageById, type Pool } from '@switchboard/db';
import { ApiError } from '@switchboard/http';
import type { Logger } from '@switchboard/logger';
import type { WaitOutcome } from '@switchboard/queue';

/**
 * `?wait=true` on plain execute: Discord and Fluxer answer 200 with the message once it is
 * stored. The answer is read from PostgreSQL (the row is the truth, not the job's return value)
 * and shaped by the same presenter as GET /channels/{id}/messages.
 *
 * Not stored within the bound: 504 MESSAGE_DELIVERY_TIMEOUT, naming the message id. Not 202 or
 * 204: a client that asked to wait expects a message or an error, and the outcome really is
 * unknown (the job is still queued or running, and may yet post, exactly once, under that id).
 */
export async function answerWait(
  res: Response,
  pool: Pool,
  logger: Logger,
  outcome: WaitOutcome,
  messageId: string,
): Promise<void> {
  if (outcome.state === 'pending') {
    throw new ApiError('MESSAGE_DELIVERY_TIMEOUT', { body: { message_id: messageId } });
  }
  if (outcome.state === 'failed') {
    logger.error({ jobId: outcome.jobId, reason: outcome.error }, 'webhook delivery failed while the client waited');
    throw new ApiError('INTERNAL_SERVER_ERROR');
  }
  const result = webhookDeliveryResultSchema.safeParse(outcome.result);
  if (result.success && result.data.outcome === 'webhook_gone') throw new ApiError('UNKNOWN_WEBHOOK');
  if (result.success && result.data.outcome === 'channel_gone') throw new ApiError('UNKNOWN_CHANNEL');
  const stored = result.success && result.data.outcome === 'stored' ? await findMessageById(pool, messageId) : null;
  if (!stored) {
    logger.error({ jobId: outcome.jobId, messageId }, 'webhook delivery completed without a stored message');
    throw new ApiError('INTERNAL_SERVER_ERROR');
  }
  res.status(200).json(presentMessage(stored));
}
