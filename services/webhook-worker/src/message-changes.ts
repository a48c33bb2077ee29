import {
  presentMessage,
  type WebhookMessageChangeResult,
  type WebhookMessageDeletePayload,
  type WebhookMessageEditPayload,
} from '@switchboard/contracts';
import { deleteWebhookMessage, editWebhookMessage, type Pool } from '@switchboard/db';
import type { JobHandler } from '@switchboard/queue';
import { snowflakeTimestamp } from '@switchboard/snowflake';
import { appendEventsOnce, messageEvent, type EventStreamOptions } from './events.ts';
import type { RedisClient } from '@switchboard/redis';

export interface MessageChangeDeps {
  pool: Pool;
  /** A request-path client, for the events stream. */
  redis: RedisClient;
  events: EventStreamOptions;
}

/**
 * An edit through the webhook token: the row is written (dated by the edit's snowflake, so a
 * retry writes the same), then MESSAGE_UPDATE appended once under the edit's own marker. An
 * edit overtaken by a later one (a stale retry) changes nothing and announces nothing.
 */
export function editHandler({ pool, redis, events }: MessageChangeDeps): JobHandler<WebhookMessageEditPayload> {
  return async ({ webhookId, messageId, editId, content, embeds }): Promise<WebhookMessageChangeResult> => {
    const edited = await editWebhookMessage(pool, {
      webhookId,
      messageId,
      content,
      embeds,
      editedAt: snowflakeTimestamp(editId),
    });
    if (!edited) return { outcome: 'gone' };
    if (edited.applied)
      await appendEventsOnce(redis, events, [
        { marker: `edit:${editId}`, event: messageEvent('MESSAGE_UPDATE', presentMessage(edited.message)) },
      ]);
    return { outcome: 'changed' };
  };
}

/**
 * A delete through the webhook token: the row goes, then MESSAGE_DELETE is appended once under
 * the message's delete marker, also when a retry finds the row already gone (the first attempt
 * may have died between the two).
 */
export function deleteHandler({ pool, redis, events }: MessageChangeDeps): JobHandler<WebhookMessageDeletePayload> {
  return async ({ webhookId, messageId, channelId, guildId }): Promise<WebhookMessageChangeResult> => {
    const deleted = await deleteWebhookMessage(pool, webhookId, messageId);
    const data = { id: messageId, channel_id: channelId, ...(guildId !== null ? { guild_id: guildId } : {}) };
    const event = {
      type: 'MESSAGE_DELETE' as const,
      guild_id: guildId ?? '',
      channel_id: channelId,
      message_id: messageId,
      data: JSON.stringify(data),
    };
    await appendEventsOnce(redis, events, [{ marker: `delete:${messageId}`, event }]);
    return { outcome: deleted ? 'changed' : 'gone' };
  };
}
