import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';

/*
 * What a Redis Cluster client needs beyond a single client's handling (client.ts). One part
 * reaches what ioredis 5.11.1's Cluster keeps private: the connection its pub/sub goes through
 * (a ClusterSubscriber, on one node chosen at random, replaced by another when it ends, with
 * its channels). Counted in redisConnections and kept alive by pingClusterSubscriber;
 * packages/redis/test/cluster-liveness.test.ts guards both.
 */
interface WithSubscriber {
  subscriber?: { getInstance?(): Redis | null };
}

/** The cluster client's pub/sub connection, while it has one. */
export function clusterSubscriberConnection(cluster: Cluster): Redis | undefined {
  return (cluster as unknown as WithSubscriber).subscriber?.getInstance?.() ?? undefined;
}

/** Every connection a cluster client holds: one per node, and its pub/sub connection. */
export function clusterConnections(cluster: Cluster): Redis[] {
  const subscriber = clusterSubscriberConnection(cluster);
  return subscriber ? [...cluster.nodes(), subscriber] : cluster.nodes();
}

/**
 * A cluster client subscribes on a connection of its own, made without a liveness bound and
 * never reconnected (once it ends, the client subscribes again through another node, picked at
 * random). An idle one PINGs every `intervalMs`, and one whose answer does not come within
 * `timeoutMs` is dropped: its channels move to another node. One still handshaking at two
 * checks in a row is dropped too: a node that accepts connections but answers nothing (frozen)
 * would hold it before ready for good, where no PING is sent.
 */
export function pingClusterSubscriber(cluster: Cluster, intervalMs: number, timeoutMs: number): void {
  let waiting = false;
  let handshaking: Redis | undefined;
  const timer = setInterval(() => {
    const subscriber = clusterSubscriberConnection(cluster);
    if (subscriber?.status === 'connecting' || subscriber?.status === 'connect') {
      if (handshaking === subscriber) subscriber.disconnect();
      handshaking = subscriber;
      return;
    }
    handshaking = undefined;
    if (waiting || subscriber?.status !== 'ready' || subscriber.mode !== 'subscriber') return;
    waiting = true;
    const dropper = setTimeout(() => subscriber.disconnect(), timeoutMs);
    subscriber
      .ping()
      .catch(() => {})
      .finally(() => {
        waiting = false;
        clearTimeout(dropper);
      });
  }, intervalMs).unref();
  cluster.once('end', () => clearInterval(timer));
}

/** The username and password options of a connection, each only when given. */
export function credentials(username: string | undefined, password: string | undefined): RedisOptions {
  return { ...(username ? { username } : {}), ...(password ? { password } : {}) };
}

/**
 * A cluster client's options from a role's single-client options: its nodes' connections get
 * them (ioredis gives nodes no reconnects of their own: a lost node is found again through the
 * slot map), the cluster itself the reconnect strategy and, for request-path roles, no offline
 * queue, so that a command fails at once while the cluster is not ready, as a single client's
 * does while it reconnects.
 */
export function clusterOptions(
  { retryStrategy, lazyConnect, ...nodeOptions }: RedisOptions,
  { offlineQueue, access }: { offlineQueue: boolean; access: RedisOptions },
): ClusterOptions {
  return {
    redisOptions: { ...access, ...nodeOptions },
    ...(retryStrategy ? { clusterRetryStrategy: retryStrategy } : {}),
    enableOfflineQueue: offlineQueue,
    lazyConnect: lazyConnect ?? false,
  };
}
