import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@switchboard/logger';
import { closeRedis, createRedis } from '@switchboard/redis';
// Not in package.json: testkit depends on this package, and turbo refuses a cycle.
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
// The http package's test helper: a real pino logger whose lines a test can read.
import { captureLogger } from '../../http/test/error-model-helpers.ts';
import {
  acquireSnowflakeLease,
  NoFreeWorkerIdError,
  SnowflakeLeaseLostError,
  snowflakeWorkerId,
  workerIdLeaseKey,
  type SnowflakeLease,
  type SnowflakeLeaseOptions,
} from '../src/index.ts';

const environment = useTestEnvironment();
const TTL_MS = 60_000;
const silent = createLogger('lease-test', 'silent');

let redis: Redis;
beforeAll(() => {
  redis = createRedis(environment.redisUrl, { role: 'client', name: 'lease-test' });
});
afterAll(async () => {
  await closeRedis(redis);
});

const leases: SnowflakeLease[] = [];
afterEach(async () => {
  await Promise.all(leases.splice(0).map((lease) => lease.release()));
});

let tests = 0;
/** A REDIS_PREFIX of the test's own under the file's, so tests never see each other's leases. */
function testPrefix(): string {
  tests += 1;
  return `${environment.redisPrefix}.t${tests}`;
}

async function lease(prefix: string, options: Partial<SnowflakeLeaseOptions> = {}): Promise<SnowflakeLease> {
  const acquired = await acquireSnowflakeLease({ redis, prefix, ttlMs: TTL_MS, logger: silent, ...options });
  leases.push(acquired);
  return acquired;
}

/** Marks every worker id but `except` as leased by some other process. */
async function leaseAllBut(prefix: string, except: number[] = []): Promise<void> {
  const pipeline = redis.pipeline();
  for (let id = 0; id < 1024; id++)
    if (!except.includes(id)) pipeline.set(workerIdLeaseKey(prefix, id), 'someone-else', 'PX', TTL_MS);
  await pipeline.exec();
}

/** Redis away, as the client sees it: its commands fail at once until connect(). */
async function cutOff(client: Redis): Promise<void> {
  const ended = once(client, 'end');
  client.disconnect();
  await ended;
}

describe('snowflake worker-id leases', () => {
  it('leases the preferred id when it is free, under its key with the TTL, and mints under it', async () => {
    const prefix = testPrefix();
    const held = await lease(prefix, { preferredWorkerId: 7 });
    expect(held.workerId()).toBe(7);
    expect(held.held()).toBe(true);
    expect(await redis.get(workerIdLeaseKey(prefix, 7))).toMatch(/^[0-9a-f]{32}$/);
    const ttl = await redis.pttl(workerIdLeaseKey(prefix, 7));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(TTL_MS);
    expect(snowflakeWorkerId(held.ids.next())).toBe(7);
  });

  it('leases another free id when the preferred one is taken, and logs which', async () => {
    const prefix = testPrefix();
    const first = await lease(prefix, { preferredWorkerId: 7 });
    const captured = captureLogger();
    const second = await lease(prefix, { preferredWorkerId: 7, logger: captured.logger });
    const secondId = second.workerId();
    expect(secondId).not.toBeNull();
    expect(secondId).not.toBe(7);
    expect(snowflakeWorkerId(second.ids.next())).toBe(secondId);
    expect(first.ids.next()).not.toBe(second.ids.next());
    expect(captured.lines()).toContainEqual(
      expect.objectContaining({
        level: 40,
        workerId: secondId,
        preferredWorkerId: 7,
        msg: expect.stringContaining('leased another'),
      }),
    );
  });

  it('refuses to start with one clear error when every id is leased', async () => {
    const prefix = testPrefix();
    await leaseAllBut(prefix);
    const refused = await lease(prefix).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NoFreeWorkerIdError);
    expect((refused as Error).message).toContain(`all 1024 under Redis prefix "${prefix}"`);
  });

  it('renews its own key to the full TTL', async () => {
    const prefix = testPrefix();
    const held = await lease(prefix, { preferredWorkerId: 3 });
    const key = workerIdLeaseKey(prefix, 3);
    await redis.pexpire(key, 1_000);
    expect(await held.renew()).toBe(true);
    expect(await redis.pttl(key)).toBeGreaterThan(1_000);
  });

  it('release stops minting and deletes the key, but never another owner’s', async () => {
    const prefix = testPrefix();
    const mine = await lease(prefix, { preferredWorkerId: 1 });
    mine.ids.next();
    await mine.release();
    expect(await redis.exists(workerIdLeaseKey(prefix, 1))).toBe(0);
    expect(() => mine.ids.next()).toThrow(SnowflakeLeaseLostError);
    expect(mine.workerId()).toBeNull();

    const lapsed = await lease(prefix, { preferredWorkerId: 2 });
    // Its lease lapsed and another process took the id: release must leave that lease alone.
    await redis.set(workerIdLeaseKey(prefix, 2), 'someone-else');
    await lapsed.release();
    expect(await redis.get(workerIdLeaseKey(prefix, 2))).toBe('someone-else');
  });

  it('on finding another owner, refuses ids until it leases a free id', async () => {
    const prefix = testPrefix();
    const held = await lease(prefix, { preferredWorkerId: 5 });
    await leaseAllBut(prefix); // id 5 included: another process now holds it
    expect(await held.renew()).toBe(false);
    expect(held.held()).toBe(false);
    expect(held.workerId()).toBeNull();
    expect(() => held.ids.next()).toThrow(SnowflakeLeaseLostError);

    await redis.del(workerIdLeaseKey(prefix, 9));
    expect(await held.renew()).toBe(true);
    expect(held.workerId()).toBe(9);
    expect(snowflakeWorkerId(held.ids.next())).toBe(9);
    expect(await redis.get(workerIdLeaseKey(prefix, 5))).toBe('someone-else');
  });

  it('refuses ids once Redis has not confirmed the lease for a TTL, and resumes when Redis answers', async () => {
    const prefix = testPrefix();
    let nowMs = 0;
    const flaky = createRedis(environment.redisUrl, { role: 'client', name: 'lease-test-flaky' });
    try {
      const held = await lease(prefix, { redis: flaky, preferredWorkerId: 11, monotonicNow: () => nowMs });
      await cutOff(flaky);
      nowMs += TTL_MS - 1;
      expect(await held.renew()).toBe(true); // the renewal fails, but the lease is not a TTL old yet
      expect(snowflakeWorkerId(held.ids.next())).toBe(11);
      nowMs += 1;
      expect(await held.renew()).toBe(false);
      expect(() => held.ids.next()).toThrow(SnowflakeLeaseLostError);

      // Redis is back and the key still ours: the same id again, for a whole TTL.
      await flaky.connect();
      expect(await held.renew()).toBe(true);
      expect(held.workerId()).toBe(11);
      nowMs += TTL_MS - 1;
      expect(held.held()).toBe(true);

      // The key expired while Redis was away (no one took it): the same id is taken again.
      await cutOff(flaky);
      nowMs += TTL_MS;
      expect(held.held()).toBe(false);
      await redis.del(workerIdLeaseKey(prefix, 11));
      await flaky.connect();
      expect(await held.renew()).toBe(true);
      expect(snowflakeWorkerId(held.ids.next())).toBe(11);
      expect(await redis.pttl(workerIdLeaseKey(prefix, 11))).toBeGreaterThan(0);
    } finally {
      await Promise.all(leases.splice(0).map((lease) => lease.release()));
      await closeRedis(flaky);
    }
  });

  // An outage longer than the TTL (a frozen Redis) loses the lease; renewing only every third of
  // the TTL left the process refusing ids for up to that long after Redis was back.
  it('takes its lost lease back within a second of Redis answering again, not a third of the TTL later', async () => {
    const prefix = testPrefix();
    let nowMs = 0;
    const flaky = createRedis(environment.redisUrl, { role: 'client', name: 'lease-test-outage' });
    try {
      const held = await lease(prefix, { redis: flaky, preferredWorkerId: 12, monotonicNow: () => nowMs });
      await cutOff(flaky);
      nowMs += TTL_MS;
      expect(await held.renew()).toBe(false);
      expect(() => held.ids.next()).toThrow(SnowflakeLeaseLostError);

      await flaky.connect();
      // Nothing renews but the lease's own timer; a third of the TTL is 20 s.
      await waitFor(async () => held.held(), 5_000, 20);
      expect(snowflakeWorkerId(held.ids.next())).toBe(12);
    } finally {
      await Promise.all(leases.splice(0).map((lease) => lease.release()));
      await closeRedis(flaky);
    }
  });
});
