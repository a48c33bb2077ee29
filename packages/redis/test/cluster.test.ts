import { randomUUID } from 'node:crypto';
import { Cluster, Command } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
// Not in package.json: testkit depends on this package, and turbo refuses a cycle.
import { startRedisCluster, type RunningRedisCluster } from '@switchboard/testkit/redis-cluster';
import { waitFor } from '@switchboard/testkit/wait';
import {
  closeRedis,
  createRedis,
  duplicateRedis,
  isRedisUnavailable,
  redisConnections,
  redisTarget,
  sameSlotTag,
  whenRedisReady,
  type RedisClient,
} from '../src/index.ts';

// Clients of a real three-master Redis Cluster (docs/decisions.md#redis-cluster).
let cluster: RunningRedisCluster;
let client: RedisClient;
const made: RedisClient[] = [];
const tag = randomUUID();
/** Keys that land on every master: 100 unrelated names spread over the 16384 slots. */
const keys = Array.from({ length: 100 }, (_, index) => `cluster-test:${tag}:${index}`);

beforeAll(async () => {
  cluster = await startRedisCluster();
  client = createRedis(redisTarget({ REDIS_URL: 'redis://unused', REDIS_CLUSTER_NODES: cluster.nodes }), {
    role: 'client',
    name: 'cluster-test',
  });
  made.push(client);
  await whenRedisReady(client, 10_000);
}, 60_000);

afterAll(async () => {
  await Promise.all(made.map((each) => closeRedis(each)));
  await cluster?.stop();
});

it('makes a cluster client for REDIS_CLUSTER_NODES that reaches every master, and counts a connection per node', async () => {
  expect(client).toBeInstanceOf(Cluster);
  const before = redisConnections().client;
  await Promise.all(keys.map((key, index) => client.set(key, String(index), 'EX', 60)));
  expect(await Promise.all(keys.map((key) => client.get(key)))).toEqual(keys.map((_, index) => String(index)));
  expect((client as Cluster).nodes('master')).toHaveLength(3);
  // Other files' clients may be open too: this one's three nodes are among them.
  expect(redisConnections().client).toBeGreaterThanOrEqual(3);
  expect(redisConnections().client - before).toBeLessThanOrEqual(3);
});

it("lets go of a command's arguments once it succeeded on its node, and keeps a failed one's", async () => {
  const key = `cluster-test:${tag}:args`;
  const value = 'x'.repeat(8192);
  const set = new Command('set', [key, value]);
  await expect(client.sendCommand(set)).resolves.toEqual(Buffer.from('OK'));
  await Promise.resolve();
  expect(set.args).toEqual([]);
  const wrong = new Command('incr', [key]);
  await expect(client.sendCommand(wrong)).rejects.toThrow(/not an integer/);
  await Promise.resolve();
  expect(wrong.args).toEqual([key]);
});

it('duplicates a cluster for another role, whose subscriber hears what any node publishes and is counted', async () => {
  const subscriber = duplicateRedis(client, { role: 'worker', name: 'cluster-test-sub' });
  made.push(subscriber);
  expect(subscriber).toBeInstanceOf(Cluster);
  expect((subscriber as Cluster).options.redisOptions?.maxRetriesPerRequest).toBeNull();
  const channel = `cluster-test:${tag}:channel`;
  const heard: string[] = [];
  subscriber.on('message', (_, message: string) => heard.push(message));
  const workersBefore = redisConnections().worker;
  await subscriber.subscribe(channel);
  expect(redisConnections().worker).toBeGreaterThan(workersBefore);
  // Published from a script on the node that owns the key, as the IP-ban channel does.
  await client.eval(
    "redis.call('INCR', KEYS[1]) return redis.call('PUBLISH', ARGV[1], 'hello')",
    1,
    `${channel}:seq`,
    channel,
  );
  await waitFor(async () => heard.includes('hello'), 5_000);
});

it('fails a request-path command at once, as unavailable, while no node answers', async () => {
  const away = createRedis({ nodes: [{ host: '127.0.0.1', port: 1 }] }, { role: 'producer', name: 'cluster-away' });
  made.push(away);
  const started = performance.now();
  const error = await away.get('anything').catch((caught: unknown) => caught);
  expect(performance.now() - started).toBeLessThan(1_000);
  expect(isRedisUnavailable(error)).toBe(true);
  await expect(whenRedisReady(away, 500)).rejects.toThrow();
});

it('refuses a command across slots, which is why every script keeps its keys in one', async () => {
  const error = await client.mget(keys[0]!, keys[1]!, keys[2]!, keys[3]!).catch((caught: Error) => caught);
  expect(String(error)).toMatch(/CROSSSLOT|same slot/);
});

it.each(['events', 'sb:events', 'a{b}c', '{a{b}', 'tag{'])(
  'tags keys into the slot of %s, as the cluster places them',
  async (key) => {
    const slotOf = (name: string) => client.cluster('KEYSLOT', name);
    expect(await slotOf(`sb:events:published:${sameSlotTag(key)}:123`)).toBe(await slotOf(key));
  },
);

it('refuses to tag for a key whose slot no tag can name', () => {
  for (const key of ['a}b', 'x{}y']) expect(() => sameSlotTag(key)).toThrow(/give it a \{hash tag\} of its own/);
});

it("takes REDIS_URL's credentials and TLS for every node, and keeps them in a duplicate", () => {
  const target = redisTarget({ REDIS_URL: 'rediss://user:p%40ss@unused:6380/0', REDIS_CLUSTER_NODES: cluster.nodes });
  expect(target).toEqual({ nodes: cluster.nodes, username: 'user', password: 'p@ss', tls: true });
  const secure = createRedis(target, { role: 'client', lazyConnect: true }) as Cluster;
  const duplicate = duplicateRedis(secure, { role: 'worker', lazyConnect: true });
  for (const each of [secure, duplicate]) {
    expect(each.options.redisOptions).toMatchObject({ username: 'user', password: 'p@ss', tls: {} });
  }
  expect(duplicate.options.redisOptions?.maxRetriesPerRequest).toBeNull();
  expect(secure.options.enableOfflineQueue).toBe(false);
  expect(duplicate.options.enableOfflineQueue).toBe(true);
  made.push(secure, duplicate);
});
