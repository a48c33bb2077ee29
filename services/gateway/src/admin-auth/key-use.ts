import type { Redis } from 'ioredis';
import { touchAdminApiKeyLastUsed, type Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';

/** `last_used_at` is written at most once per this interval per key (decisions §2). */
export const KEY_USE_INTERVAL_MS = 60_000;
/** Keys one replica remembers its own markers for before sweeping out the lapsed ones. */
const MAX_REMEMBERED_MARKERS = 10_000;

export interface KeyUseRecorder {
  /** Notes a use of the key; returns at once and never throws. */
  (keyId: string): void;
}

/**
 * Records key uses off the request's critical path. A Redis `SET NX PX` shared by every
 * replica admits one use per key per minute; only that one becomes an UPDATE (whose own
 * WHERE keeps the once-a-minute rule when Redis is unavailable and every use falls through).
 * A replica whose SET was admitted knows the marker stands for the interval, so it does not ask
 * again until then: a busy admin client costs one command a minute on it, not one per request.
 */
export function keyUseRecorder(options: { pool: Pool; redis: Redis; prefix: string; logger: Logger }): KeyUseRecorder {
  const { pool, redis, prefix, logger } = options;
  const intervalSeconds = KEY_USE_INTERVAL_MS / 1000;
  /** Until when (ms) the marker this replica set stands, per key; swept as it grows. */
  const ownMarkers = new Map<string, number>();
  const standsOwnMarker = (keyId: string, now: number): boolean => (ownMarkers.get(keyId) ?? 0) > now;
  const rememberOwnMarker = (keyId: string, now: number): void => {
    if (ownMarkers.size >= MAX_REMEMBERED_MARKERS) {
      for (const [id, until] of ownMarkers) if (until <= now) ownMarkers.delete(id);
    }
    ownMarkers.set(keyId, now + KEY_USE_INTERVAL_MS);
  };

  async function record(keyId: string): Promise<void> {
    const askedAt = Date.now();
    const admitted = await redis
      .set(`${prefix}:admin-key-used:${keyId}`, '1', 'PX', KEY_USE_INTERVAL_MS, 'NX')
      .then((reply) => {
        if (reply === 'OK') rememberOwnMarker(keyId, askedAt);
        return reply === 'OK';
      })
      // Redis unavailable: the UPDATE's own WHERE keeps the once-a-minute rule.
      .catch(() => true);
    if (admitted) await touchAdminApiKeyLastUsed(pool, keyId, intervalSeconds);
  }

  return (keyId) => {
    if (standsOwnMarker(keyId, Date.now())) return;
    record(keyId).catch((error: unknown) => {
      logger.warn({ keyId, reason: error instanceof Error ? error.message : String(error) }, 'could not record admin key use');
    });
  };
}
