import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeRedis, createRedis, whenRedisReady, type RedisClient } from '@switchboard/redis';
import { startRedisCluster, type RunningRedisCluster } from '@switchboard/testkit/redis-cluster';
import { appendEventsOnce, messageEvent, publishedMarkerKey } from '../src/events.ts';

// The events script on a real three-master Redis Cluster: the stream and every marker it
// writes in one call share the stream's slot.
let cluster: RunningRedisCluster;
let redis: RedisClient;

beforeAll(async () => {
  cluster = await startRedisCluster();
  redis = createRedis({ nodes: cluster.nodes }, { role: 'client', name: 'events-cluster-test' });
  await whenRedisReady(redis, 10_000);
}, 60_000);

afterAll(async () => {
  if (redis) await closeRedis(redis);
  await cluster?.stop();
});

function created(id: string) {
  return messageEvent('MESSAGE_CREATE', { id, channel_id: '1', guild_id: '2' } as never);
}

it('appends a batch once per marker, the markers in the stream slot, the stream under its own name', async () => {
  const options = { streamKey: 'events', redisPrefix: 'sb', maxLength: 1000, markerTtlSeconds: 60 };
  const batch = ['10', '11', '12', '13'].map((id) => ({ marker: id, event: created(id) }));
  const first = await appendEventsOnce(redis, options, batch);
  expect(first.every((id) => typeof id === 'string')).toBe(true);
  // Retried with one new event: only that one is appended.
  const again = await appendEventsOnce(redis, options, [...batch, { marker: '14', event: created('14') }]);
  expect(again.slice(0, 4)).toEqual([null, null, null, null]);
  expect(typeof again[4]).toBe('string');
  expect(await redis.xlen('events')).toBe(5);
  const marker = publishedMarkerKey('sb', '10', 'events');
  expect(marker).toBe('sb:events:published:{events}:10');
  expect(await redis.exists(marker)).toBe(1);
  expect(await redis.cluster('KEYSLOT', marker)).toBe(await redis.cluster('KEYSLOT', 'events'));
});
