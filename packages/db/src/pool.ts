import pg from 'pg';
import { createCircuitBreaker } from '@switchboard/circuit-breaker';
import { isConnectionFailure } from './errors.ts';
import { countPool, countSession } from './connection-census.ts';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = pg.Pool | pg.PoolClient;
export type SessionClient = pg.Client;

export interface PoolOptions {
  connectionString: string;
  /** Connections kept at most; size it per process, not per replica count. */
  max?: number;
  applicationName?: string;
  /** Bound on opening a connection. */
  connectTimeoutMs?: number;
  /**
   * Bound on one statement (0: none, for migrations and bulk seeding). The server cancels the
   * statement at the bound; one second later the client stops waiting, which only happens
   * when the server or the network is gone, and the connection is dropped.
   */
  queryTimeoutMs?: number;
  /**
   * After a connection failure (a silent or vanished server), statements and checkouts fail
   * at once with CircuitOpenError for this long, then one probes; 0: no circuit breaker.
   */
  circuitOpenMs?: number;
  /**
   * `connectionString` is a pooler in transaction mode (PgBouncer): a server connection is
   * ours for one transaction only, so nothing is set for the session at connect (PgBouncer
   * refuses such startup parameters); a transaction sets its bounds and time zone itself
   * (withTransaction), a lone statement has the client-side bound and the role's settings
   * (README: Behind PgBouncer).
   */
  transactionPooler?: boolean;
  /** Named prepared statements (default: unless transactionPooler); unnamed ones work through any pooler. */
  preparedStatements?: boolean;
}

/** The DATABASE_* settings of a process's configuration as createPool options. */
export function poolModeOptions(config: {
  DATABASE_POOL_MODE?: 'session' | 'transaction';
  DATABASE_PREPARED_STATEMENTS?: boolean | undefined;
}): Pick<PoolOptions, 'transactionPooler' | 'preparedStatements'> {
  const transactionPooler = config.DATABASE_POOL_MODE === 'transaction';
  return { transactionPooler, preparedStatements: config.DATABASE_PREPARED_STATEMENTS ?? !transactionPooler };
}

/** What a pool of transactionPooler sets at the start of each of its transactions. */
const transactionSettings = new WeakMap<pg.Pool, string>();

/** What every connection of ours is opened with, pooled or not. */
function sessionSettings(
  connectionString: string,
  applicationName: string,
  connectTimeoutMs: number,
  transactionPooler = false,
): pg.ClientConfig {
  return {
    connectionString,
    application_name: applicationName,
    // Every session in UTC, whatever the server's default: dates PostgreSQL renders (to_json)
    // then match those the archive worker formats itself from binary COPY
    // (services/archive-worker/src/copy/binary-timestamp.ts). Behind a transaction pooler,
    // each transaction sets it (transactionSettings).
    ...(transactionPooler ? {} : { options: '-c TimeZone=UTC' }),
    connectionTimeoutMillis: connectTimeoutMs,
    // A peer that vanished without a FIN (a host power-off) is noticed by TCP itself.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/**
 * One connection outside any pool, for a session that must stay the same (LISTEN). The caller
 * connects it, and replaces it when it fails: nothing reconnects it. `queryTimeoutMs` bounds
 * each statement on the client side only.
 */
export function createSessionClient(options: {
  connectionString: string;
  applicationName: string;
  connectTimeoutMs: number;
  queryTimeoutMs: number;
}): pg.Client {
  const client = new pg.Client({
    ...sessionSettings(options.connectionString, options.applicationName, options.connectTimeoutMs),
    query_timeout: options.queryTimeoutMs,
  });
  countSession(client);
  return client;
}

/** How much longer than the server's own cancel the client waits before it gives up the connection. */
const CLIENT_TIMEOUT_GRACE_MS = 1_000;

/**
 * A pg pool. int8 columns (snowflakes, counts) stay decimal strings, as they go on the wire;
 * code that needs arithmetic converts explicitly.
 */
export function createPool({
  connectionString,
  max = 10,
  applicationName = 'switchboard',
  connectTimeoutMs = 5_000,
  queryTimeoutMs = 0,
  circuitOpenMs = 0,
  transactionPooler = false,
  preparedStatements = !transactionPooler,
}: PoolOptions): Pool {
  const bounded = queryTimeoutMs > 0;
  const pool = new pg.Pool({
    ...sessionSettings(connectionString, applicationName, connectTimeoutMs, transactionPooler),
    max,
    idleTimeoutMillis: 30_000,
    ...(bounded ? { query_timeout: queryTimeoutMs + CLIENT_TIMEOUT_GRACE_MS } : {}),
    ...(bounded && !transactionPooler
      ? {
          statement_timeout: queryTimeoutMs,
          // Without it a connection left inside a transaction by a hung client holds its locks.
          idle_in_transaction_session_timeout: queryTimeoutMs + CLIENT_TIMEOUT_GRACE_MS,
        }
      : {}),
  });
  if (transactionPooler) {
    const bounds = bounded
      ? `SET LOCAL statement_timeout = ${queryTimeoutMs}; SET LOCAL idle_in_transaction_session_timeout = ${queryTimeoutMs + CLIENT_TIMEOUT_GRACE_MS}; `
      : '';
    transactionSettings.set(pool, `${bounds}SET LOCAL TimeZone = 'UTC'`);
  }
  if (!preparedStatements) unnameStatements(pool);
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor one that is checked out between two statements (pg-pool listens only while a client is
  // idle): its holder learns of it from its next statement, and releaseAfter drops it.
  pool.on('connect', (client) => client.on('error', () => {}));
  countPool(pool);
  if (circuitOpenMs > 0) failFastWhenUnreachable(pool, applicationName, circuitOpenMs);
  return pool;
}

/**
 * Routes the pool's statements and checkouts through a circuit breaker: once one meets a
 * connection failure, the rest fail at once instead of each waiting out its own timeout
 * behind the first (a silent database would otherwise hold every request for the full bound).
 * Only the promise forms go through it: pg-pool's own query() checks a client out with the
 * callback form, which must reach the pool untouched (and is covered by the outer query()).
 */
function failFastWhenUnreachable(pool: pg.Pool, name: string, openMs: number): void {
  const breaker = createCircuitBreaker({
    name: `database (${name})`,
    dependency: 'database',
    isOutage: isConnectionFailure,
    openMs,
  });
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => Promise<pg.PoolClient> | undefined;
  const hasCallback = (args: unknown[]) => typeof args[args.length - 1] === 'function';
  pool.query = ((...args: unknown[]) =>
    hasCallback(args) ? query(...args) : breaker.run(() => query(...args))) as typeof pool.query;
  pool.connect = ((...args: unknown[]) =>
    hasCallback(args) ? connect(...args) : breaker.run(() => connect()!)) as typeof pool.connect;
}

/**
 * Gives a checked-out client back after `error` (undefined: it finished cleanly). A client
 * whose connection failed (a client-side timeout included: the reply may still come, and
 * would answer the next statement) is dropped, not reused. pool.query drops on every error.
 */
export function releaseAfter(client: PoolClient, error: unknown): void {
  client.release(isConnectionFailure(error) ? (error as Error) : undefined);
}

/**
 * Statements go unnamed: a pooler in transaction mode may run a statement's next execution on
 * another server connection, where a name prepared on the first does not exist (PgBouncer
 * before 1.21 keeps none).
 */
function unnameStatements(pool: pg.Pool): void {
  type Query = (...args: unknown[]) => unknown;
  const unnamed =
    (query: Query): Query =>
    (...args) => {
      const [first] = args;
      if (first && typeof first === 'object' && 'name' in first) {
        const { name: _dropped, ...rest } = first as Record<string, unknown>;
        args[0] = rest;
      }
      return query(...args);
    };
  pool.query = unnamed(pool.query.bind(pool) as Query) as unknown as typeof pool.query;
  pool.on('connect', (client) => {
    client.query = unnamed(client.query.bind(client) as Query) as unknown as typeof client.query;
  });
}

export interface TransactionOptions {
  /**
   * Read only, every statement seeing one snapshot (REPEATABLE READ): for an answer built from
   * several reads that must agree, such as a page and its total.
   */
  readOnlySnapshot?: boolean;
}

/** Runs `work` in a transaction on one client, rolling back on any error. */
export async function withTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  try {
    const settings = transactionSettings.get(pool);
    const begin = options.readOnlySnapshot ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN';
    // One round trip: BEGIN and the transaction's own settings as one simple query.
    await client.query(settings ? `${begin}; ${settings}` : begin);
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    // On a dropped connection the server rolls back itself; waiting for a ROLLBACK reply
    // from a silent server would only hold the caller past its bound.
    if (!isConnectionFailure(error)) await client.query('ROLLBACK').catch(() => {});
    releaseAfter(client, error);
    throw error;
  }
}

/**
 * Runs `work` in one read-only snapshot: its own transaction when `db` is the pool, else the
 * caller's transaction on `db`.
 */
export async function inOneSnapshot<T>(db: Queryable, work: (db: Queryable) => Promise<T>): Promise<T> {
  return db instanceof pg.Pool ? withTransaction(db, work, { readOnlySnapshot: true }) : work(db);
}

/**
 * The id of the transaction `db` is in, as the credential triggers (migrations 0009, 0010)
 * notify it: a writer waits for the gateway processes to acknowledge that id.
 */
export async function currentTransactionId(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ txid: string }>('SELECT txid_current()::text AS txid');
  return rows[0]!.txid;
}
