import type pg from 'pg';

/** This process's PostgreSQL connections, as made through createPool and createSessionClient. */
export interface DatabaseConnections {
  /** Pooled connections open, of which idle; requests waiting for one; the pools' size summed. */
  pool: { open: number; idle: number; waiting: number; max: number };
  /** Connections outside any pool (a LISTEN session) that are connected. */
  session: number;
}

const pools = new Set<pg.Pool>();
const sessions = new Set<pg.Client>();

/** Counts `pool` until it is ended (pg's pool tells nobody when it is). */
export function countPool(pool: pg.Pool): void {
  pools.add(pool);
  const end = pool.end.bind(pool);
  pool.end = ((...args: Parameters<pg.Pool['end']>) => {
    pools.delete(pool);
    return end(...args);
  }) as pg.Pool['end'];
}

/** Counts `client` while it is connected. */
export function countSession(client: pg.Client): void {
  client.once('connect', () => sessions.add(client));
  client.once('end', () => sessions.delete(client));
}

/** Read when scraped: what the pools and sessions of this process hold now. */
export function databaseConnections(): DatabaseConnections {
  const pool = { open: 0, idle: 0, waiting: 0, max: 0 };
  for (const each of pools) {
    pool.open += each.totalCount;
    pool.idle += each.idleCount;
    pool.waiting += each.waitingCount;
    pool.max += each.options.max ?? 10;
  }
  return { pool, session: sessions.size };
}
