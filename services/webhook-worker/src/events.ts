import type { MessageResponse, StreamEvent } from '@switchboard/contracts';
import { sameSlotTag, whenRedisReady, type RedisClient } from '@switchboard/redis';

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

const clientsWithCommand = new WeakSet<RedisClient>();

function withPublish(redis: RedisClient): WithPublish {
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

/**
 * The "appended" marker of one event: `marker` is the message id for MESSAGE_CREATE, else the
 * change's own id. On a Redis Cluster (`clusterStreamKey` given) it carries the stream's hash
 * tag: the script writes both, and a cluster refuses a script whose keys are in different
 * slots; the stream keeps its name, which its readers know. A single server keeps the name it
 * always had, so a retry that straddles an upgrade still finds its marker.
 */
export function publishedMarkerKey(redisPrefix: string, marker: string, clusterStreamKey?: string): string {
  const slot = clusterStreamKey === undefined ? '' : `${sameSlotTag(clusterStreamKey)}:`;
  return `${redisPrefix}:events:published:${slot}${marker}`;
}

/** An event and the marker that says it was appended (one per event, never reused). */
export interface OnceEvent {
  marker: string;
  event: StreamEvent;
}

/**
 * Appends each event to the events stream unless its marker says an earlier attempt did, in
 * one script call (one round trip for a whole batch). Answers, in order, each new entry's id,
 * or null when that event was appended before.
 */
export async function appendEventsOnce(
  redis: RedisClient,
  options: EventStreamOptions,
  events: readonly OnceEvent[],
): Promise<Array<string | null>> {
  const entries = events.map(({ event }) => Object.entries(event).flat());
  const width = entries[0]?.length ?? 0;
  // A fail-fast client refuses commands while it (re)connects; wait briefly rather than fail the job.
  await whenRedisReady(redis);
  const slotOf = redis.isCluster ? options.streamKey : undefined;
  const markers = events.map(({ marker }) => publishedMarkerKey(options.redisPrefix, marker, slotOf));
  const keys = [options.streamKey, ...markers];
  const args = [String(options.markerTtlSeconds), String(options.maxLength), String(width), ...entries.flat()];
  const ids = await withPublish(redis)[COMMAND](String(keys.length), ...keys, ...args);
  return events.map((_, index) => ids[index] ?? null);
}

/** A MESSAGE_CREATE or MESSAGE_UPDATE entry: the message as the read model presents it. */
export function messageEvent(type: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE', message: MessageResponse): StreamEvent {
  return {
    type,
    guild_id: message.guild_id ?? '',
    channel_id: message.channel_id,
    message_id: message.id,
    data: JSON.stringify(message),
  };
}

/** MESSAGE_CREATE for each message, at most once per message id (see appendEventsOnce). */
export function publishMessageCreates(
  redis: RedisClient,
  options: EventStreamOptions,
  messages: readonly MessageResponse[],
): Promise<Array<string | null>> {
  return appendEventsOnce(
    redis,
    options,
    messages.map((message) => ({ marker: message.id, event: messageEvent('MESSAGE_CREATE', message) })),
  );
}
