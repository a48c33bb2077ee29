import type { Redis } from 'ioredis';
import { eventsStreamKey, type MessageResponse, type StreamEvent } from '@switchboard/contracts';
import { whenRedisReady } from '@switchboard/queue';

/**
 * Sets the "published" marker and appends the entry in one step, or does neither: Redis runs a
 * script atomically, so a retried delivery either finds the marker (and appends nothing) or
 * appends exactly once. ARGV: marker TTL seconds, MAXLEN, then the entry's field/value pairs.
 */
const PUBLISH_ONCE_LUA = `
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[1]) then
  return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', unpack(ARGV, 3))
end
return false
`;

/** Never rename: ioredis caches the script per connection under this name. */
const COMMAND = 'switchboardPublishEventOnce';

type WithPublish = { [COMMAND]: (streamKey: string, markerKey: string, ...args: string[]) => Promise<string | null> };

const clientsWithCommand = new WeakSet<Redis>();

function withPublish(redis: Redis): WithPublish {
  if (!clientsWithCommand.has(redis)) {
    redis.defineCommand(COMMAND, { lua: PUBLISH_ONCE_LUA, numberOfKeys: 2 });
    clientsWithCommand.add(redis);
  }
  return redis as unknown as WithPublish;
}

export interface EventStreamOptions {
  redisPrefix: string;
  /** Approximate cap of the stream. */
  maxLength: number;
  /** How long a published message id is remembered. */
  markerTtlSeconds: number;
}

export function publishedMarkerKey(redisPrefix: string, messageId: string): string {
  return `${redisPrefix}:events:published:${messageId}`;
}

/**
 * Appends MESSAGE_CREATE for `message` to the events stream unless it was appended before.
 * Returns the new entry's id, or null when an earlier attempt already appended it.
 */
export async function publishMessageCreate(redis: Redis, options: EventStreamOptions, message: MessageResponse): Promise<string | null> {
  const entry: StreamEvent = {
    type: 'MESSAGE_CREATE',
    guild_id: message.guild_id ?? '',
    channel_id: message.channel_id,
    message_id: message.id,
    data: JSON.stringify(message),
  };
  // A fail-fast client refuses commands while it (re)connects; wait briefly rather than fail the job.
  await whenRedisReady(redis);
  return withPublish(redis)[COMMAND](
    eventsStreamKey(options.redisPrefix),
    publishedMarkerKey(options.redisPrefix, message.id),
    String(options.markerTtlSeconds),
    String(options.maxLength),
    ...Object.entries(entry).flat(),
  );
}
