import { Cluster } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RateLimitBucket } from '@switchboard/contracts';
import { call } from '@switchboard/testkit/http';
import { startRedisCluster, type RunningRedisCluster } from '@switchboard/testkit/redis-cluster';
import type { ServedApp } from '@switchboard/testkit/network';
import { rateLimit, rateLimitKey } from '../src/rate-limit/index.ts';
import { byHeader, freshIdentity } from './rate-limit-helpers.ts';
import { startApp } from './start-app.ts';

// The limiter on a real three-master Redis Cluster: one script call reads and writes the
// route's bucket and the global one, keys that share the identity's hash tag.
let cluster: RunningRedisCluster;
let redis: Cluster;
let app: ServedApp;
const ROUTE: RateLimitBucket = { name: 'test:cluster', limit: 3, windowMs: 60_000, countsTowardGlobal: true };
const GLOBAL: RateLimitBucket = { name: 'test:cluster-global', limit: 4, windowMs: 60_000, countsTowardGlobal: true };
const OTHER: RateLimitBucket = { name: 'test:cluster-other', limit: 10, windowMs: 60_000, countsTowardGlobal: true };
const prefix = 'rl-cluster';

beforeAll(async () => {
  cluster = await startRedisCluster();
  // As createRedis makes a request-path cluster client (this package does not depend on it).
  redis = new Cluster(cluster.nodes, { enableOfflineQueue: false, redisOptions: { maxRetriesPerRequest: 1 } });
  redis.on('error', () => {});
  await new Promise((resolve) => redis.once('ready', resolve));
  app = await startApp((server) => {
    for (const [path, bucket] of [
      ['/route', ROUTE],
      ['/other', OTHER],
    ] as const) {
      const limiter = rateLimit({ redis, prefix, bucket, global: GLOBAL, identity: byHeader, timeoutMs: 10_000 });
      server.get(path, limiter, (_req, res) => void res.json({ ok: true }));
    }
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  redis?.disconnect();
  await cluster?.stop();
});

it('counts a route bucket and the global one together on a cluster, per identity', async () => {
  const identity = freshIdentity();
  const get = async (path: string, who = identity) =>
    (await call('GET', `${app.url}${path}`, { headers: { 'x-identity': who } })).status;
  const statuses: number[] = [];
  for (let index = 0; index < 4; index += 1) statuses.push(await get('/route'));
  expect(statuses).toEqual([200, 200, 200, 429]);
  // The route refused the fourth without spending the global budget: one request of it is left.
  expect([await get('/other'), await get('/other')]).toEqual([200, 429]);
  // Another identity, other slots, its own budgets.
  expect(await get('/route', freshIdentity())).toBe(200);
  const slotOf = (key: string) => redis.cluster('KEYSLOT', key);
  const route = rateLimitKey(prefix, `test:${identity}`, ROUTE.name);
  expect(await slotOf(route)).toBe(await slotOf(rateLimitKey(prefix, `test:${identity}`, GLOBAL.name)));
  expect(await redis.exists(route)).toBe(1);
});
