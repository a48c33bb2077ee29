import type { RedisClient } from '@switchboard/redis';

/**
 * A clock a test moves itself, kept in a Redis key as whole microseconds, so that a process
 * under test (the rate limiter's `redisKeyClock`, the gateway's RATE_LIMIT_CLOCK_KEY) decides
 * by it and never by how fast the machine happens to run.
 */
export interface TestClock {
  key: string;
  /** The time the clock shows, in whole microseconds. */
  nowMicros(): number;
  /** Moves the clock forward by `ms` milliseconds (fractions allowed, down to 1 µs). */
  advance(ms: number): Promise<void>;
}

/** Sets the clock in `key` to `startMicros` (default: now) and returns it. */
export async function frozenClock(
  redis: RedisClient,
  key: string,
  startMicros = Date.now() * 1000,
): Promise<TestClock> {
  let now = Math.trunc(startMicros);
  await redis.set(key, String(now));
  return {
    key,
    nowMicros: () => now,
    async advance(ms) {
      now += Math.round(ms * 1000);
      await redis.set(key, String(now));
    },
  };
}
