import { WEBHOOK_CHANNEL_TYPES, type Channel } from '@switchboard/db';
import { ApiError } from '@switchboard/http';

/**
 * A webhook posts messages, so it lives only on a channel that shows them as a feed (text,
 * announcement): on a voice channel or a category its messages would be stored where no
 * client shows them. 404 when the channel is gone, 400 `INVALID_CHANNEL_TYPE` otherwise.
 */
export function requireWebhookChannel(channel: Pick<Channel, 'type'> | null): void {
  if (channel === null) throw new ApiError('UNKNOWN_CHANNEL');
  if (!WEBHOOK_CHANNEL_TYPES.has(channel.type)) throw new ApiError('INVALID_CHANNEL_TYPE');
}
