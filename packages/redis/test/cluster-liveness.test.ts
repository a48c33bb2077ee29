import { randomUUID } from 'node:crypto';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
// Not in package.json: testkit depends on this package, and turbo refuses a cycle.
import { startRedisCluster, type RunningRedisCluster } from '@switchboard/testkit/redis-cluster';
import { waitFor } from '@switchboard/testkit/wait';
import { clusterSubscriberConnection } from '../src/cluster.ts';
import {
  closeRedis,
  createRedis,
  isRedisUnavailable,
  redisConnections,
  SUBSCRIBER_PING_INTERVAL_MS,
  whenRedisReady,
  WORKER_SOCKET_TIMEOUT_MS,
  type RedisClient,
} from '../src/index.ts';

// A worker-role cluster client's subscriber on a node that falls silent (SIGSTOP): its pings go
// unanswered, it is dropped, and its channels move to a live node (pingClusterSubscriber).
let cluster: RunningRedisCluster;
const made: RedisClient[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);

afterAll(async () => {
  await Promise.all(made.map((client) => closeRedis(client)));
  await cluster?.stop();
});

it('counts the subscriber connection, and moves its channels off a silent node', async () => {
  const target = { nodes: cluster.nodes };
  const publisher = createRedis(target, { role: 'client', name: 'cluster-liveness-pub' }) as Cluster;
  const subscriber = createRedis(target, { role: 'worker', name: 'cluster-liveness-sub' }) as Cluster;
  made.push(publisher, subscriber);
  await Promise.all(made.map((client) => whenRedisReady(client, 10_000)));
  await Promise.all(publisher.nodes('master').map((node) => node.ping()));
  const channel = `cluster-liveness:${randomUUID()}`;
  const heard: string[] = [];
  subscriber.on('message', (_, message: string) => heard.push(message));
  const workersBefore = redisConnections().worker;
  await subscriber.subscribe(channel);
  const first = clusterSubscriberConnection(subscriber);
  expect(first?.status).toBe('ready');
  // The subscriber's own connection, beside the nodes the client had already opened.
  expect(redisConnections().worker).toBe(workersBefore + 1);

  const silenced = first!.options.port!;
  cluster.signal(silenced, 'SIGSTOP');
  const stoppedAt = performance.now();
  try {
    const live = publisher.nodes('master').filter((node) => node.options.port !== silenced);
    let sent = 0;
    await waitFor(
      async () => {
        sent += 1;
        await live[sent % live.length]!.publish(channel, `after-${sent}`).catch(() => 0);
        return heard.some((message) => message.startsWith('after-'));
      },
      // The new node is picked at random, and may be the silent one again (dropped once it
      // has not become ready at two checks): a bound that allows for several such picks.
      SUBSCRIBER_PING_INTERVAL_MS + WORKER_SOCKET_TIMEOUT_MS + 100_000,
      250,
    );
  } finally {
    cluster.signal(silenced, 'SIGCONT');
  }
  // Not before an unanswered ping reached its bound.
  expect(performance.now() - stoppedAt).toBeGreaterThan(WORKER_SOCKET_TIMEOUT_MS - 1_000);
  expect(clusterSubscriberConnection(subscriber)?.options.port).not.toBe(silenced);
}, 150_000);

it("times a silent node's commands out as unavailable, and serves its slots again once it answers", async () => {
  const client = createRedis(
    { nodes: cluster.nodes },
    { role: 'producer', name: 'cluster-liveness-timeout', commandTimeoutMs: 300 },
  ) as Cluster;
  made.push(client);
  await whenRedisReady(client, 10_000);
  const key = `cluster-liveness:${randomUUID()}`;
  await client.set(key, 'kept');
  const port = await ownerPort(client, key);
  cluster.signal(port, 'SIGSTOP');
  try {
    const started = performance.now();
    const error = await client.get(key).catch((caught: unknown) => caught);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(isRedisUnavailable(error)).toBe(true);
  } finally {
    cluster.signal(port, 'SIGCONT');
  }
  // The timed-out connection was dropped; a new one to the same node answers.
  await waitFor(async () => (await client.get(key).catch(() => null)) === 'kept', 10_000, 100);
});

/** The port of the master serving `key`'s slot, from the cluster's own slot table. */
async function ownerPort(client: Cluster, key: string): Promise<number> {
  const slot = (await client.cluster('KEYSLOT', key)) as number;
  const range = (await client.cluster('SLOTS')).find(([from, to]) => slot >= from && slot <= to);
  const master = range?.[2];
  if (!master) throw new Error(`no master serves slot ${slot}`);
  return master[1];
}
