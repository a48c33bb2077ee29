import { z } from 'zod';

/**
 * The Redis stream `events` (docs/decisions.md#events-stream): what happened in guilds, for whatever fans it out
 * to clients. Its key is exactly `events` by default, as the interface names it; a deployment
 * (or a test file) sharing a Redis server sets EVENTS_STREAM_KEY to keep its own. The stream is
 * capped (`XADD … MAXLEN ~ <cap>`): a consumer further behind than the cap misses entries.
 */
export const DEFAULT_EVENTS_STREAM_KEY = 'events';

export const EVENT_TYPES = ['MESSAGE_CREATE', 'MESSAGE_UPDATE', 'MESSAGE_DELETE'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * One stream entry, as its field/value pairs. `data` is the JSON of the event's object (for
 * MESSAGE_CREATE and MESSAGE_UPDATE: the message as GET /channels/{id}/messages presents it;
 * for MESSAGE_DELETE, as Discord: `{id, channel_id, guild_id?}`); the ids beside it let
 * consumers route an entry without parsing `data`.
 */
export const streamEventSchema = z.object({
  type: z.enum(EVENT_TYPES),
  guild_id: z.string(),
  channel_id: z.string(),
  message_id: z.string(),
  data: z.string(),
});
export type StreamEvent = z.infer<typeof streamEventSchema>;

/** An entry's flat `[field, value, field, value, …]` list (XRANGE/XREAD) as an object. */
export function parseStreamEvent(fields: readonly string[]): StreamEvent {
  const entry: Record<string, string> = {};
  for (let index = 0; index + 1 < fields.length; index += 2) entry[fields[index]!] = fields[index + 1]!;
  return streamEventSchema.parse(entry);
}
