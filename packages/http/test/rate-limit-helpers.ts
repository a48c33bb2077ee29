import { once } from 'node:events';
import type { Express } from 'express';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import type { RateLimitBucket } from '@switchboard/contracts';
import { frozenClock, type TestClock } from '@switchboard/testkit/clock';
import type { Answer } from '@switchboard/testkit/http';
import type { ServedApp } from '@switchboard/testkit/network';
import type { TestEnvironment } from '@switchboard/testkit/environment';
import { rateLimit, redisKeyClock, type RateLimitClock, type RateLimitOptions } from '../src/rate-limit/index.ts';
import { startApp } from './start-app.ts';

/** Identity from a test header, so each test gets fresh budgets. */
export const byHeader: RateLimitOptions['identity'] = (req) => `test:${req.get('x-identity') ?? 'none'}`;

/**
 * The limiter lets a request through unlimited when Redis does not answer in time; on a busy
 * machine the default 500 ms can pass without anything being wrong, so the routes under test
 * wait longer (the fail-open bound has tests of its own).
 */
const TEST_TIMEOUT_MS = 10_000;

let identities = 0;
/** An x-identity value of its own: a budget no other test has spent. */
export function freshIdentity(): string {
  identities += 1;
  return `${process.pid}-${Date.now()}-${identities}`;
}

/**
 * Sets up GET routes that answer `{ ok: true }` behind their bucket's limiter, counted by
 * x-identity, deciding by `clock` (default: Redis time).
 */
export function limitedRoutes(
  redis: Redis,
  prefix: string,
  routes: Record<string, RateLimitBucket>,
  clock?: RateLimitClock,
): (app: Express) => void {
  return (app) => {
    for (const [path, bucket] of Object.entries(routes)) {
      const limiter = rateLimit({ redis, prefix, bucket, identity: byHeader, clock, timeoutMs: TEST_TIMEOUT_MS });
      app.get(path, limiter, (_req, res) => void res.json({ ok: true }));
    }
  };
}

/** A client like the gateway's request-path client: fails fast when Redis is away. */
export function requestPathRedis(url: string, extra: RedisOptions = {}): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, ...extra });
  client.on('error', () => {});
  return client;
}

/** As requestPathRedis, once connected (a gateway listens only after its clients are up). */
export async function readyRedis(url: string): Promise<Redis> {
  const client = requestPathRedis(url);
  if (client.status !== 'ready') await once(client, 'ready');
  return client;
}

export function header(answer: Answer, name: string): string | null {
  return answer.headers.get(name);
}

/** What a rate-limit test file shares, set before its first test. */
export interface LimitedApp {
  redis: Redis;
  /** The limiters decide by this clock, which only the tests move: no answer depends on speed. */
  clock: TestClock;
  /** Serves `routes`, each behind its bucket's limiter on `clock`. */
  app: ServedApp;
}

/**
 * Call at the top of a test file: from before its first test to after its last, a Redis client,
 * a frozen clock and an app serving `routes` (see limitedRoutes) that decides by it.
 */
export function useLimitedApp(env: TestEnvironment, routes: Record<string, RateLimitBucket>): LimitedApp {
  const limited = {} as LimitedApp;
  beforeAll(async () => {
    limited.redis = await readyRedis(env.redisUrl);
    limited.clock = await frozenClock(limited.redis, `${env.redisPrefix}:test-clock`);
    const clock = redisKeyClock(limited.redis, limited.clock.key);
    limited.app = await startApp(limitedRoutes(limited.redis, env.redisPrefix, routes, clock));
  });
  afterAll(async () => {
    await limited.app?.close();
    limited.redis?.disconnect();
  });
  return limited;
}
