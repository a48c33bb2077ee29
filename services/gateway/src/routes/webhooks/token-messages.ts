import type { RequestHandler } from 'express';
import {
  presentMessage,
  snowflakeSchema,
  WEBHOOK_MESSAGE_DELETE_JOB,
  WEBHOOK_MESSAGE_EDIT_JOB,
  webhookMessageChangeResultSchema,
  type WebhookMessageChangeResult,
} from '@switchboard/contracts';
import { findMessageById, type Pool, type StoredMessage, type Webhook } from '@switchboard/db';
import { ApiError, validate } from '@switchboard/http';
import type { WaitOutcome } from '@switchboard/queue';
import { editMessageBodySchema, renderEdit } from '@switchboard/webhook-formats';
import type { GatewayDeps } from '../../deps.ts';
import { webhookTokenParams } from './schemas.ts';
import { refuseUnsignedWhenSecret } from './signed-only.ts';
import { webhookByToken } from './token-routes.ts';

/**
 * A webhook's own messages through its token, as Discord serves them to integrations (a CI bot
 * turning "build started" into "build passed"): GET, PATCH (content, embeds, allowed_mentions)
 * and DELETE on `/webhooks/{id}/{token}/messages/{message_id}`. Checks in execute's order: path
 * (400), body (400), token (404 UNKNOWN_WEBHOOK), then the message (404 UNKNOWN_MESSAGE when it
 * is not this webhook's, or not stored yet: a delivery still queued is not a message). A
 * webhook with a secret is signed-only: PATCH and DELETE are 401 for it (signed-only.ts).
 *
 * Edits and deletes run on the webhook worker, which writes the row and appends MESSAGE_UPDATE /
 * MESSAGE_DELETE exactly once, as for creates; the route waits for it up to
 * WEBHOOK_WAIT_TIMEOUT_MS (then 504 MESSAGE_DELIVERY_TIMEOUT: it may still apply).
 */
export const messageParams = webhookTokenParams.extend({ message_id: snowflakeSchema });

async function ownMessage(pool: Pool, webhook: Webhook, messageId: string): Promise<StoredMessage> {
  const message = await findMessageById(pool, messageId);
  if (!message || message.webhookId !== webhook.id) throw new ApiError('UNKNOWN_MESSAGE');
  return message;
}

/** The worker's answer for a change, or the error the client gets. */
function changeOutcome(outcome: WaitOutcome, messageId: string): WebhookMessageChangeResult {
  if (outcome.state === 'pending') throw new ApiError('MESSAGE_DELIVERY_TIMEOUT', { body: { message_id: messageId } });
  if (outcome.state === 'failed') throw new ApiError('INTERNAL_SERVER_ERROR');
  const result = webhookMessageChangeResultSchema.parse(outcome.result);
  if (result.outcome === 'gone') throw new ApiError('UNKNOWN_MESSAGE');
  return result;
}

export function getMessageByToken({ pool }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const params = validate(messageParams, req.params);
    const webhook = await webhookByToken(pool, params);
    res.json(presentMessage(await ownMessage(pool, webhook, params.message_id)));
  };
}

export function editMessageByToken({ pool, producer, ids, config }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const params = validate(messageParams, req.params);
    const changes = renderEdit(validate(editMessageBodySchema, req.body));
    const webhook = await webhookByToken(pool, params);
    refuseUnsignedWhenSecret(webhook);
    const message = await ownMessage(pool, webhook, params.message_id);
    // The message as it would read after the edit must still say something.
    const content = changes.content ?? message.content;
    const embeds = changes.embeds ?? message.embeds;
    if (content === '' && embeds.length === 0) throw new ApiError('CANNOT_SEND_EMPTY_MESSAGE');
    const edit = {
      webhookId: webhook.id,
      messageId: message.id,
      editId: ids.next(),
      ...(changes.content !== undefined ? { content: changes.content } : {}),
      // Rendered embeds are plain JSON objects; the job contract keeps them opaque.
      ...(changes.embeds !== undefined ? { embeds: changes.embeds as unknown as Array<Record<string, unknown>> } : {}),
    };
    const outcome = await producer.enqueueAndWait(WEBHOOK_MESSAGE_EDIT_JOB, edit, {
      timeoutMs: config.WEBHOOK_WAIT_TIMEOUT_MS,
    });
    changeOutcome(outcome, message.id);
    const edited = await findMessageById(pool, message.id);
    if (!edited) throw new ApiError('UNKNOWN_MESSAGE');
    res.json(presentMessage(edited));
  };
}

export function deleteMessageByToken({ pool, producer, config }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const params = validate(messageParams, req.params);
    const webhook = await webhookByToken(pool, params);
    refuseUnsignedWhenSecret(webhook);
    const message = await ownMessage(pool, webhook, params.message_id);
    const outcome = await producer.enqueueAndWait(
      WEBHOOK_MESSAGE_DELETE_JOB,
      { webhookId: webhook.id, messageId: message.id, channelId: message.channelId, guildId: message.guildId },
      { timeoutMs: config.WEBHOOK_WAIT_TIMEOUT_MS },
    );
    changeOutcome(outcome, message.id);
    res.status(204).end();
  };
}
