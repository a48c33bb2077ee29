import { recordUserTokenSeen, type Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import type { RedisClient } from '@switchboard/redis';

/** last_seen_ip/last_seen_at are written at most once per this interval per token and address. */
export const TOKEN_SEEN_INTERVAL_MS = 60_000;

/** Notes a use of the token from `ip`; returns at once and never throws. */
export type TokenUseRecorder = (tokenHash: Buffer, ip: string) => void;

/**
 * Records token uses off the request's critical path, as the admin keys' last_used_at. A
 * Redis `SET NX PX` shared by every replica admits one write per token and client address per
 * minute: a new address is recorded at once, because retroactive IP bans revoke tokens by
 * last_seen_ip. The UPDATE's own WHERE keeps the rule when Redis is unavailable.
 */
export function tokenUseRecorder(options: {
  pool: Pool;
  redis: RedisClient;
  prefix: string;
  logger: Logger;
}): TokenUseRecorder {
  const { pool, redis, prefix, logger } = options;

  async function record(tokenHash: Buffer, ip: string): Promise<void> {
    // Half the hash names the token well enough for a throttle key, and keeps keys short.
    const key = `${prefix}:user-token-seen:${tokenHash.subarray(0, 16).toString('hex')}:${ip}`;
    const admitted = await redis
      .set(key, '1', 'PX', TOKEN_SEEN_INTERVAL_MS, 'NX')
      .then((reply) => reply === 'OK')
      .catch(() => true);
    if (admitted) await recordUserTokenSeen(pool, tokenHash, ip);
  }

  return (tokenHash, ip) => {
    record(tokenHash, ip).catch((error: unknown) => {
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'could not record user token use',
      );
    });
  };
}
