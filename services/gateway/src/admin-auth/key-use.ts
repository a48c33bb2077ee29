import type { Redis } from 'ioredis';
import { touchAdminApiKeyLastUsed, type Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';

/** `last_used_at` is written at most once per this interval per key (decisions §2). */
export const KEY_USE_INTERVAL_MS = 60_000;

export interface KeyUseRecorder {
  /** Notes a use of the key; returns at once and never throws. */
  (keyId: string): void;
}

/**
 * Records key uses off the request's critical path. A Redis `SET NX PX` shared by every
 * replica admits one use per key per minute; only that one becomes an UPDATE (whose own
 * WHERE keeps the once-a-minute rule when Redis is unavailable and every use falls through).
 */
export function keyUseRecorder(options: { pool: Pool; redis: Redis; prefix: string; logger: Logger }): KeyUseRecorder {
  const { pool, redis, prefix, logger } = options;
  const intervalSeconds = KEY_USE_INTERVAL_MS / 1000;

  async function record(keyId: string): Promise<void> {
    const admitted = await redis
      .set(`${prefix}:admin-key-used:${keyId}`, '1', 'PX', KEY_USE_INTERVAL_MS, 'NX')
      .then((reply) => reply === 'OK')
      .catch(() => true);
    if (admitted) await touchAdminApiKeyLastUsed(pool, keyId, intervalSeconds);
  }

  return (keyId) => {
    record(keyId).catch((error: unknown) => {
      logger.warn({ keyId, reason: error instanceof Error ? error.message : String(error) }, 'could not record admin key use');
    });
  };
}
