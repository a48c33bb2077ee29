import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '@switchboard/logger';
import { closeRedis, createRedis, whenRedisReady, type RedisClient } from '@switchboard/redis';
// Not in package.json: testkit depends on this package, and turbo refuses a cycle.
import { startRedisCluster, type RunningRedisCluster } from '@switchboard/testkit/redis-cluster';
import { acquireSnowflakeLease, snowflakeWorkerId, workerIdLeaseKey } from '../src/index.ts';

// Worker-id leases on a real three-master Redis Cluster: each lease is one key, its scripts
// touch only it, and the keys of the 1024 ids spread over the masters.
let cluster: RunningRedisCluster;
let redis: RedisClient;
const silent = createLogger('lease-cluster-test', 'silent');
const prefix = 'lease-cluster';

beforeAll(async () => {
  cluster = await startRedisCluster();
  redis = createRedis({ nodes: cluster.nodes }, { role: 'client', name: 'lease-cluster-test' });
  await whenRedisReady(redis, 10_000);
}, 60_000);

afterAll(async () => {
  if (redis) await closeRedis(redis);
  await cluster?.stop();
});

it('leases, renews and releases worker ids whose keys live on different masters', async () => {
  const options = { redis, prefix, ttlMs: 60_000, logger: silent };
  const first = await acquireSnowflakeLease({ ...options, preferredWorkerId: 7 });
  const second = await acquireSnowflakeLease({ ...options, preferredWorkerId: 7 });
  try {
    expect(first.workerId()).toBe(7);
    expect(second.workerId()).not.toBe(7);
    expect(snowflakeWorkerId(second.ids.next())).toBe(second.workerId());
    const key = workerIdLeaseKey(prefix, 7);
    await redis.pexpire(key, 1_000);
    expect(await first.renew()).toBe(true);
    expect(await redis.pttl(key)).toBeGreaterThan(1_000);
    await first.release();
    expect(await redis.exists(key)).toBe(0);
    // The ids' keys are in different slots: no command or script takes two of them.
    const slots = new Set(
      await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((id) => redis.cluster('KEYSLOT', workerIdLeaseKey(prefix, id)))),
    );
    expect(slots.size).toBeGreaterThan(1);
  } finally {
    await Promise.all([first.release(), second.release()]);
  }
});
