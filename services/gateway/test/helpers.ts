import { once } from 'node:events';
import type { Express } from 'express';
import { afterAll, beforeAll, expect } from 'vitest';
import { createPool, type Pool } from '@switchboard/db';
import { answerClientErrors } from '@switchboard/http';
import { createLogger } from '@switchboard/logger';
import { createProducer, type Producer } from '@switchboard/queue';
import { leaseSnowflakeWorkerId, openResources } from '@switchboard/runtime';
import type { SnowflakeLease } from '@switchboard/snowflake';
import type { Storage } from '@switchboard/storage';
import { frozenClock, type TestClock } from '@switchboard/testkit/clock';
import { metricValue, scrapeMetrics } from '@switchboard/testkit/metrics';
import { serveOnFreePort } from '@switchboard/testkit/network';
import type { TestEnvironment } from '@switchboard/testkit/environment';
import { createApp, parseGatewayConfig, type AppOptions, type GatewayConfig } from '../src/index.ts';
import type { RedisClient } from '@switchboard/redis';

export interface RunningGateway {
  url: string;
  /** The express app createApp built, for tests that read its mounted routes. */
  app: Express;
  config: GatewayConfig;
  /**
   * The test's own pool on the gateway's database, for fixtures and checks: unbounded, unlike
   * the gateway's (seeding 200,000 rows on a busy machine may take longer than a request may).
   */
  pool: Pool;
  redis: RedisClient;
  storage: Storage;
  /** Passed to createApp so that close() also closes its `?wait=true` listener. */
  producer: Producer;
  /** Its snowflake worker-id lease, taken on `redis` as main.ts takes it. */
  snowflakeLease: SnowflakeLease;
  close(): Promise<void>;
}

export function gatewayConfig(environment: TestEnvironment, extra: Record<string, string> = {}): GatewayConfig {
  const parsed = parseGatewayConfig(environment.processEnv(extra));
  if (!parsed.ok) throw new Error(`bad test configuration: ${parsed.problems.join('; ')}`);
  return parsed.config;
}

/** What a test may replace in the app: its admin areas, its producer (e.g. one whose Redis is down). */
export type GatewayParts = Pick<AppOptions, 'adminAreas' | 'producer'>;

/**
 * A real gateway (createApp) on this file's PostgreSQL, Redis and bucket, on an ephemeral port,
 * with the clients main.ts opens (openResources: the same bounds). The test gets a pool of its
 * own beside them.
 */
export async function startGateway(
  environment: TestEnvironment,
  extra: Record<string, string> = {},
  app: GatewayParts = {},
): Promise<RunningGateway> {
  const config = gatewayConfig(environment, extra);
  const logger = createLogger('gateway-test', 'silent');
  const resources = openResources('gateway-test', config, logger);
  const { redis, storage } = resources;
  // The test's own pool, to look at what the gateway did: PostgreSQL itself, also in the pooled pass.
  const pool = createPool({ connectionString: config.DATABASE_DIRECT_URL ?? config.DATABASE_URL, max: 4 });
  await once(redis, 'ready');
  const producer = app.producer ?? createProducer({ connection: redis, redisPrefix: config.REDIS_PREFIX });
  const snowflakeLease = await leaseSnowflakeWorkerId(config, redis, logger);
  const expressApp = createApp({
    config,
    logger,
    pool: resources.pool,
    redis,
    storage,
    snowflakeLease,
    ...app,
    producer,
  });
  const served = await serveOnFreePort(expressApp);
  // As main.ts: requests Node's parser refuses are answered in the error-body shape too.
  answerClientErrors(served.server);
  const close = async () => {
    await served.close();
    // The producer and the lease first: they use `redis`.
    await producer.close();
    await snowflakeLease.release();
    await resources.close();
    await pool.end();
  };
  return { url: served.url, app: expressApp, config, pool, redis, storage, producer, snowflakeLease, close };
}

/**
 * Call at the top of a test file, after useTestEnvironment(): a gateway started before the
 * file's first test and closed after its last. As with the environment, the returned object is
 * filled in when the gateway is up, so hooks registered after this call can use it.
 */
export function useGateway(
  environment: TestEnvironment,
  extra: Record<string, string> = {},
  app: GatewayParts = {},
): RunningGateway {
  const gateway = {} as RunningGateway;
  beforeAll(async () => {
    Object.assign(gateway, await startGateway(environment, extra, app));
  });
  afterAll(async () => {
    await gateway.close?.();
  });
  return gateway;
}

/**
 * A gateway whose rate limits are on and decide by a clock only the calling file moves
 * (`clock.advance`), so refills never race the requests; clients are told apart by
 * X-Forwarded-For through one trusted hop (`uniqueClient`). Both are ready in the file's tests.
 */
export function useClockedGateway(
  environment: TestEnvironment,
  clockName: string,
  extra: Record<string, string> = {},
): { gateway: RunningGateway; clock: TestClock } {
  const clockKey = `${clockName}:test-clock`;
  const gateway = useGateway(environment, {
    RATE_LIMITS_ENABLED: 'true',
    TRUSTED_PROXY_HOPS: '1',
    RATE_LIMIT_CLOCK_KEY: clockKey,
    RATE_LIMIT_TIMEOUT_MS: '10000',
    ...extra,
  });
  const clock = {} as TestClock;
  // After useGateway's own beforeAll, so the gateway (and its Redis) is up.
  beforeAll(async () => {
    Object.assign(clock, await frozenClock(gateway.redis, `${environment.redisPrefix}:${clockKey}`));
  });
  return { gateway, clock };
}

let nextAddress = 1;
/**
 * A client address of its own (sent as X-Forwarded-For to a gateway trusting one proxy hop),
 * so that tests do not share rate-limit budgets.
 */
export function uniqueClient(): Record<string, string> {
  const n = nextAddress++;
  return { 'X-Forwarded-For': `203.0.${Math.floor(n / 250) % 256}.${(n % 250) + 1}` };
}

/**
 * A credential cache's lookups so far (`<counter>{outcome="hit"|"read"}`) and whether the
 * process's change feed holds its lease (`credential_change_feed_live`), from /metrics.
 */
export async function credentialLookups(
  target: RunningGateway,
  counter: string,
): Promise<{ hit: number; read: number; live: number }> {
  const { samples } = await scrapeMetrics(`${target.url}/metrics`);
  return {
    hit: metricValue(samples, counter, { outcome: 'hit' }) ?? 0,
    read: metricValue(samples, counter, { outcome: 'read' }) ?? 0,
    live: metricValue(samples, 'credential_change_feed_live') ?? 0,
  };
}

/**
 * Sends `request` (which asserts its own answer) until one was answered from memory: the
 * process's change feed holds its lease, and `counter`'s hits moved by one (the read after a
 * change heard meanwhile is not kept, so the first calls may read).
 */
export async function untilAnsweredFromMemory(
  target: RunningGateway,
  counter: string,
  request: () => Promise<void>,
): Promise<void> {
  await expect.poll(async () => (await credentialLookups(target, counter)).live, { timeout: 5_000 }).toBe(1);
  await expect
    .poll(
      async () => {
        const before = (await credentialLookups(target, counter)).hit;
        await request();
        return (await credentialLookups(target, counter)).hit - before;
      },
      { timeout: 5_000 },
    )
    .toBe(1);
}
