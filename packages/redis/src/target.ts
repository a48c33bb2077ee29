/** A Sentinel-watched master: clients ask the sentinels where it is, and again after a failover. */
export interface SentinelTarget {
  sentinels: Array<{ host: string; port: number }>;
  /** The master's name in the sentinels' configuration (`sentinel monitor <name> …`). */
  name: string;
  username?: string;
  password?: string;
  db?: number;
}

/** Where a process's Redis is: a `redis://` URL, or a master behind Sentinel. */
export type RedisTarget = string | SentinelTarget;

/**
 * The target a process's configuration names: REDIS_URL, or with REDIS_SENTINELS the master
 * REDIS_SENTINEL_NAME those sentinels watch (REDIS_URL then gives only the credentials and the
 * database: its host is not used).
 */
export function redisTarget(config: {
  REDIS_URL: string;
  REDIS_SENTINELS?: Array<{ host: string; port: number }> | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
}): RedisTarget {
  if (!config.REDIS_SENTINELS || config.REDIS_SENTINELS.length === 0) return config.REDIS_URL;
  const url = new URL(config.REDIS_URL);
  const db = Number(url.pathname.slice(1) || 0);
  return {
    sentinels: config.REDIS_SENTINELS,
    name: config.REDIS_SENTINEL_NAME ?? 'mymaster',
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db > 0 ? { db } : {}),
  };
}

/** `host:port` for logs: the URL's, or the master's name and its sentinels. */
export function describeTarget(target: RedisTarget): string {
  if (typeof target === 'string') return new URL(target).host;
  return `${target.name} via ${target.sentinels.map(({ host, port }) => `${host}:${port}`).join(',')}`;
}
