/** A Sentinel-watched master: clients ask the sentinels where it is, and again after a failover. */
export interface SentinelTarget {
  sentinels: Array<{ host: string; port: number }>;
  /** The master's name in the sentinels' configuration (`sentinel monitor <name> …`). */
  name: string;
  username?: string;
  password?: string;
  db?: number;
}

/** A Redis Cluster: clients learn every master from these seed nodes, and follow slot moves. */
export interface ClusterTarget {
  nodes: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
  /** TLS to every node (REDIS_URL is `rediss://`), as managed clusters with in-transit encryption need. */
  tls?: boolean;
}

/** Where a process's Redis is: a `redis://` URL, a master behind Sentinel, or a cluster. */
export type RedisTarget = string | SentinelTarget | ClusterTarget;

export function isClusterTarget(target: RedisTarget): target is ClusterTarget {
  return typeof target !== 'string' && 'nodes' in target;
}

/**
 * The target a process's configuration names: REDIS_URL; with REDIS_CLUSTER_NODES the cluster
 * those seed nodes belong to; or with REDIS_SENTINELS the master REDIS_SENTINEL_NAME those
 * sentinels watch. With either, REDIS_URL gives only the credentials (and, for Sentinel, the
 * database): its host is not used.
 */
export function redisTarget(config: {
  REDIS_URL: string;
  REDIS_SENTINELS?: Array<{ host: string; port: number }> | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
  REDIS_CLUSTER_NODES?: Array<{ host: string; port: number }> | undefined;
}): RedisTarget {
  const url = new URL(config.REDIS_URL);
  const credentials = {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
  };
  if (config.REDIS_CLUSTER_NODES && config.REDIS_CLUSTER_NODES.length > 0) {
    return { nodes: config.REDIS_CLUSTER_NODES, ...credentials, ...(url.protocol === 'rediss:' ? { tls: true } : {}) };
  }
  if (!config.REDIS_SENTINELS || config.REDIS_SENTINELS.length === 0) return config.REDIS_URL;
  const db = Number(url.pathname.slice(1) || 0);
  return {
    sentinels: config.REDIS_SENTINELS,
    name: config.REDIS_SENTINEL_NAME ?? 'mymaster',
    ...credentials,
    ...(db > 0 ? { db } : {}),
  };
}

/** `host:port` for logs: the URL's, the cluster's seed nodes, or the master's name and its sentinels. */
export function describeTarget(target: RedisTarget): string {
  if (typeof target === 'string') return new URL(target).host;
  if (isClusterTarget(target)) return `cluster ${target.nodes.map(({ host, port }) => `${host}:${port}`).join(',')}`;
  return `${target.name} via ${target.sentinels.map(({ host, port }) => `${host}:${port}`).join(',')}`;
}
