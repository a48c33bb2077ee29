import { deltaFromWire, deltaToWire, wireDeltaSchema, type IpBanDelta } from './entry.ts';
import type { RedisClient } from '@switchboard/redis';

/** Where IP ban changes travel. Renaming either strands replicas on the old name during a deploy. */
export function ipBanChannel(prefix: string): string {
  return `${prefix}:ip-bans`;
}

export function ipBanSequenceKey(prefix: string): string {
  return `${prefix}:ip-bans:seq`;
}

/**
 * Numbers and publishes in one step, so the sequence order is the delivery order: a
 * subscriber that sees a number skipped knows it missed a message.
 */
const PUBLISH_SCRIPT = `
local seq = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], seq .. ' ' .. ARGV[2])
return seq`;

/** Publishes a change to every replica (this one included); returns its sequence number. */
export async function publishIpBanDelta(redis: RedisClient, prefix: string, delta: IpBanDelta): Promise<number> {
  const payload = JSON.stringify(deltaToWire(delta));
  const seq = await redis.eval(PUBLISH_SCRIPT, 1, ipBanSequenceKey(prefix), ipBanChannel(prefix), payload);
  return Number(seq);
}

/** The last sequence number handed out (0 when none yet). */
export async function currentIpBanSequence(redis: RedisClient, prefix: string): Promise<number> {
  const value = await redis.get(ipBanSequenceKey(prefix));
  return value === null ? 0 : Number(value);
}

export type ReceivedMessage = { ok: true; seq: number; delta: IpBanDelta } | { ok: false; seq: number | null };

/** `<seq> <json>`; anything else (or a delta that does not parse) is not ok. */
export function parseIpBanMessage(message: string): ReceivedMessage {
  const space = message.indexOf(' ');
  const seq = Number(message.slice(0, space));
  if (space <= 0 || !Number.isSafeInteger(seq) || seq < 1) return { ok: false, seq: null };
  let json: unknown;
  try {
    json = JSON.parse(message.slice(space + 1));
  } catch {
    return { ok: false, seq };
  }
  const wire = wireDeltaSchema.safeParse(json);
  const delta = wire.success ? deltaFromWire(wire.data) : null;
  return delta ? { ok: true, seq, delta } : { ok: false, seq };
}
