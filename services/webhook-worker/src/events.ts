import type { Redis } from 'ioredis';
import type { MessageResponse, StreamEvent } from '@switchboard/contracts';
import { whenRedisReady } from '@switchboard/redis';

/**
 * For each entry not marked "published": appends it, then marks it. Redis runs a script
 * atomically, so a retried delivery either finds the marker (and appends nothing) or appends
 * once. Appending first means a failed XADD (a script error does not undo earlier writes) leaves
 * no marker behind, so no event is ever lost: at worst a failure between the two writes appends
 * twice. KEYS: the stream, then one marker per entry. ARGV: marker TTL seconds, MAXLEN,
 * arguments per entry, then each entry's field/value pairs. Answers, per entry, the new entry id
 * or nil (appended before).
 */
const PUBLISH_ONCE_LUA = `
local results = {}
local width = tonumber(ARGV[3])
for index = 2, #KEYS do
  local first = 4 + (index - 2) * width
  if redis.call('EXISTS', KEYS[index]) == 0 then
    results[index - 1] = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', unpack(ARGV, first, first + width - 1))
    redis.call('SET', KEYS[index], '1', 'EX', ARGV[1])
  else
    results[index - 1] = false
  end
end
return results
`;

/** ioredis defines the script per connection under this name (any new name is just a new script). */
const COMMAND = 'switchboardPublishEventsOnce';

/** Called as `(numberOfKeys, ...keys, ...argv)`: the number of markers varies per call. */
type PublishOnce = (numberOfKeys: string, ...keysAndArgs: string[]) => Promise<Array<string | null>>;
type WithPublish = { [COMMAND]: PublishOnce };

const clientsWithCommand = new WeakSet<Redis>();

function withPublish(redis: Redis): WithPublish {
  if (!clientsWithCommand.has(redis)) {
    redis.defineCommand(COMMAND, { lua: PUBLISH_ONCE_LUA });
    clientsWithCommand.add(redis);
  }
  return redis as unknown as WithPublish;
}

export interface EventStreamOptions {
  /** The stream (EVENTS_STREAM_KEY, by default `events`). */
  streamKey: string;
  /** Prefix of the "published" markers, like every other key of the deployment. */
  redisPrefix: string;
  /** Approximate cap of the stream. */
  maxLength: number;
  /** How long a published message id is remembered. */
  markerTtlSeconds: number;
}

export function publishedMarkerKey(redisPrefix: string, messageId: string): string {
  return `${redisPrefix}:events:published:${messageId}`;
}

function entryArguments(message: MessageResponse): string[] {
  const entry: StreamEvent = {
    type: 'MESSAGE_CREATE',
    guild_id: message.guild_id ?? '',
    channel_id: message.channel_id,
    message_id: message.id,
    data: JSON.stringify(message),
  };
  return Object.entries(entry).flat();
}

/**
 * Appends MESSAGE_CREATE for each message to the events stream unless it was appended before,
 * in one script call (one round trip for a whole batch of deliveries). Answers, in order, each
 * new entry's id, or null when an earlier attempt already appended that message.
 */
export async function publishMessageCreates(
  redis: Redis,
  options: EventStreamOptions,
  messages: readonly MessageResponse[],
): Promise<Array<string | null>> {
  const entries = messages.map(entryArguments);
  const width = entries[0]?.length ?? 0;
  // A fail-fast client refuses commands while it (re)connects; wait briefly rather than fail the job.
  await whenRedisReady(redis);
  const keys = [options.streamKey, ...messages.map((message) => publishedMarkerKey(options.redisPrefix, message.id))];
  const args = [String(options.markerTtlSeconds), String(options.maxLength), String(width), ...entries.flat()];
  const ids = await withPublish(redis)[COMMAND](String(keys.length), ...keys, ...args);
  return messages.map((_, index) => ids[index] ?? null);
}
