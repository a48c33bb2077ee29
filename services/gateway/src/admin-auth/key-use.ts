import { touchAdminApiKeyLastUsed, type Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import type { RedisClient } from '@switchboard/redis';

/** `last_used_at` is written at most once per this interval per key (docs/decisions.md#admin-keys). */
export const KEY_USE_INTERVAL_MS = 60_000;
/** Keys one replica remembers markers of before sweeping out the lapsed ones. */
const MAX_REMEMBERED_MARKERS = 10_000;

/** Notes a use of the key; returns at once and never throws. */
export type KeyUseRecorder = (keyId: string) => void;

/**
 * Records key uses off the request's critical path. A Redis `SET NX PX` shared by every
 * replica admits one use per key per minute; only that one becomes an UPDATE (whose own
 * WHERE keeps the once-a-minute rule when Redis is unavailable and every use falls through).
 * Whatever the answer, the replica learns until when the marker stands (`PTTL`, in the same
 * round trip) and does not ask again before then: a busy admin client costs each replica one
 * command a minute, not one per request. (Remembering only the markers it set itself, a
 * replica that lost the minute to another asked on every request: one Redis round trip per
 * admin call, a large share of the ban check's CPU:
 * packages/bench/README.md#credentials-and-admin-keys.)
 */
export function keyUseRecorder(options: {
  pool: Pool;
  redis: RedisClient;
  prefix: string;
  logger: Logger;
}): KeyUseRecorder {
  const { pool, redis, prefix, logger } = options;
  const intervalSeconds = KEY_USE_INTERVAL_MS / 1000;
  /** Until when (ms) a marker is known to stand, per key, whichever replica set it; swept as it grows. */
  const knownMarkers = new Map<string, number>();
  const markerStands = (keyId: string, now: number): boolean => (knownMarkers.get(keyId) ?? 0) > now;
  const rememberMarker = (keyId: string, until: number): void => {
    if (knownMarkers.size >= MAX_REMEMBERED_MARKERS) {
      const now = Date.now();
      for (const [id, standsUntil] of knownMarkers) if (standsUntil <= now) knownMarkers.delete(id);
    }
    knownMarkers.set(keyId, until);
  };

  /** Whether this use is the minute's recorded one; Redis unavailable: true (the UPDATE decides). */
  async function admitted(keyId: string): Promise<boolean> {
    const askedAt = Date.now();
    const marker = `${prefix}:admin-key-used:${keyId}`;
    // Each answer is [error, reply]; no answers at all only for a discarded pipeline.
    const answers = await redis.pipeline().set(marker, '1', 'PX', KEY_USE_INTERVAL_MS, 'NX').pttl(marker).exec();
    if (!answers || answers[0]?.[0]) return true;
    const set = answers[0]?.[1];
    const remainingMs = answers[1]?.[1];
    if (set === 'OK') rememberMarker(keyId, askedAt + KEY_USE_INTERVAL_MS);
    else if (typeof remainingMs === 'number' && remainingMs > 0) rememberMarker(keyId, askedAt + remainingMs);
    return set === 'OK';
  }

  async function record(keyId: string): Promise<void> {
    // Redis unavailable: the UPDATE's own WHERE keeps the once-a-minute rule.
    if (await admitted(keyId).catch(() => true)) await touchAdminApiKeyLastUsed(pool, keyId, intervalSeconds);
  }

  /** Keys whose marker is being asked for: a burst of uses before the answer asks once. */
  const asking = new Set<string>();

  return (keyId) => {
    if (asking.has(keyId) || markerStands(keyId, Date.now())) return;
    asking.add(keyId);
    record(keyId)
      .catch((error: unknown) => {
        logger.warn(
          { keyId, reason: error instanceof Error ? error.message : String(error) },
          'could not record admin key use',
        );
      })
      .finally(() => asking.delete(keyId));
  };
}
