import type { Cluster, Redis } from 'ioredis';

/*
 * The one thing of ioredis 5.11.1's Cluster we reach that it keeps private: the connection its
 * pub/sub goes through (a ClusterSubscriber, on one node chosen at random, replaced by another
 * when it ends, with its channels). Counted in redisConnections and kept alive by
 * pingClusterSubscriber (client.ts); packages/redis/test/cluster.test.ts guards both.
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
