import type { Socket } from 'node:net';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '@switchboard/logger';
import { clusterConnections, clusterOptions, credentials, pingClusterSubscriber } from './cluster.ts';
import { isClusterTarget, type ClusterTarget, type RedisTarget } from './target.ts';

/*
 * ioredis is pinned to 5.11.1 (the release BullMQ 6.7 develops against), not 6.0.0. 6.0.0
 * replaced redis-parser with a RESP3 decoder compiled down to WeakMap-backed private fields:
 * a WeakMap lookup per field access while a reply is decoded, which made decoding replies a
 * far larger share of the webhook worker's CPU than redis-parser's
 * (packages/bench/README.md#redis-and-the-queue). Nothing here needs RESP3.
 */

/**
 * `worker`: long-lived and blocking (BullMQ workers, queue event listeners, subscribers):
 * commands wait for Redis to come back. `producer` and `client`: used on request paths
 * (enqueue, rate limits, caches): commands fail at once when Redis is away, so an HTTP
 * request never hangs on it.
 */
export type RedisRole = 'worker' | 'producer' | 'client';

/** A client of one server (plain or behind Sentinel) or of a Redis Cluster: the same commands. */
export type RedisClient = Redis | Cluster;

export interface RedisClientOptions {
  role: RedisRole;
  /** Shown by `CLIENT LIST`, to tell connections apart when debugging. */
  name?: string;
  /** Connection errors are logged here (reason only); ioredis repeats them while reconnecting. */
  logger?: Logger;
  /** Connect on first command instead of now. */
  lazyConnect?: boolean;
  /**
   * `producer` and `client` roles: a command unanswered this long fails (default
   * DEFAULT_COMMAND_TIMEOUT_MS), and the connection is replaced (see silentConnectionDropper).
   */
  commandTimeoutMs?: number;
}

export const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;
const COMMAND_TIMED_OUT = 'Command timed out';

/**
 * Reconnect forever, backing off to one attempt a second. ioredis counts attempts until a
 * connection is ready, so after a long outage every client waits the longest step: that step is
 * how late a client may come back once Redis has.
 */
function retryStrategy(times: number): number {
  return Math.min(times * 100, 1000);
}

/**
 * How long a connection being dropped may wait for the server to close its side. A server that
 * froze or went silent never does, and ioredis (2 s by default) reconnects only after this: a
 * connection replaced for silence must not hold its replacement back.
 */
const DISCONNECT_TIMEOUT_MS = 200;

/**
 * The liveness bound of a `worker` connection: how long it may go without a byte while it
 * waits for an answer before it is dropped and made again. Above the longest a blocking command
 * waits by design (BullMQ blocks a worker's fetch and reads queue events for at most 10 s), so
 * only a connection that is dead passes it: a path that died without a reset (an expired NAT
 * or firewall entry, an address moved by a failover) would otherwise hold a worker, or a
 * subscriber, on it forever.
 */
export const WORKER_SOCKET_TIMEOUT_MS = 15_000;
/** How often an idle subscriber asks for a PING, so that its liveness bound has an answer to wait for. */
export const SUBSCRIBER_PING_INTERVAL_MS = 5_000;

function roleOptions(role: RedisRole, commandTimeoutMs: number): RedisOptions {
  if (role === 'worker') {
    // BullMQ requires it for blocking connections: a blocking command must not be cut off.
    // (Set explicitly: a duplicate of a `client` would otherwise inherit its timeout.)
    return {
      maxRetriesPerRequest: null,
      enableOfflineQueue: true,
      commandTimeout: undefined,
      socketTimeout: WORKER_SOCKET_TIMEOUT_MS,
    };
  }
  return {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    commandTimeout: commandTimeoutMs,
  };
}

function optionsFor({
  role,
  name,
  lazyConnect,
  commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS,
}: RedisClientOptions): RedisOptions {
  return {
    ...roleOptions(role, commandTimeoutMs),
    retryStrategy,
    disconnectTimeout: DISCONNECT_TIMEOUT_MS,
    lazyConnect: lazyConnect ?? false,
    ...(name ? { connectionName: name } : {}),
  };
}

function watchErrors<Client extends RedisClient>(client: Client, { role, name, logger }: RedisClientOptions): Client {
  const warn = (error: Error) =>
    logger?.warn({ redisClient: name ?? role, reason: error.message }, 'redis connection error');
  // Without a listener ioredis prints every reconnect failure to stderr.
  client.on('error', warn);
  // A cluster reports its nodes' connection errors apart.
  if (client instanceof Cluster) client.on('node error', warn);
  return client;
}

/**
 * A command that timed out leaves the connection in doubt: a server that froze, or a network
 * path that drops packets without resetting the socket, answers nothing on it again, and
 * ioredis would keep the socket (and time out every command on it) forever. So the first
 * timeout replaces the connection; a server that was merely slow costs one reconnect. Worker
 * clients have no command timeout, so they get no handler.
 */
function silentConnectionDropper(
  client: Redis,
  { role, name, logger }: RedisClientOptions,
): ((error: unknown) => void) | undefined {
  if (role === 'worker') return undefined;
  let replacing = false;
  return (error) => {
    if (replacing || (error as Error | undefined)?.message !== COMMAND_TIMED_OUT) return;
    replacing = true;
    logger?.warn({ redisClient: name ?? role }, 'redis command timed out, reconnecting');
    client.disconnect(true);
    client.once('ready', () => {
      replacing = false;
    });
  };
}

/** Sockets corked until the current callback and its promise reactions have run. */
const heldSockets = new WeakSet<Socket>();

/**
 * Commands sent by one callback and the promise reactions it sets off leave in one system
 * call: the socket is corked at the first and uncorked on the next tick, which runs once the
 * microtask queue is empty (or, for a command sent outside any reaction, as soon as that
 * callback returns: nothing waits for a later turn of the event loop). A worker that finishes a
 * batch of jobs at once (one insert, one events script) then sends their completions together,
 * where each was its own write before: fewer writes, and less CPU for the worker and for Redis
 * per delivery; holding writes until setImmediate instead cost more
 * (packages/bench/README.md#redis-and-the-queue). Order, replies and timeouts are as before; a
 * socket destroyed meanwhile drops what it held, as ioredis's commands fail with it.
 */
function holdWritesForTick(socket: Socket | undefined): void {
  if (!socket || heldSockets.has(socket)) return;
  heldSockets.add(socket);
  socket.cork();
  process.nextTick(() => {
    heldSockets.delete(socket);
    socket.uncork();
  });
}

/**
 * Watches every command the client sends: its writes are held for the tick (holdWritesForTick),
 * and it gets one reaction to its outcome: a failure goes to the silent-connection dropper, and
 * a success lets go of the command's arguments.
 * Settled ioredis commands outlive the young-generation collections that should free them (for
 * a pipeline's commands, as the gateway's job adds were until the producer sent each on its
 * own, the reason is the per-instance `length` getter ioredis's Pipeline defines: see
 * RunningJobContext in @switchboard/queue; for single commands not pinned down), and their
 * arguments with them: on the gateway every job's serialised data (8 KB for a push) then
 * reached the old generation. Letting go shrank what survives each of the gateway's scavenges
 * and raised its ingest maximum (packages/bench/README.md#memory-and-garbage-collection).
 * Nothing reads a settled command's arguments: ioredis resends only unanswered ones, and a
 * failed command keeps them (its error names them).
 */
function watchCommands(client: Redis, options: RedisClientOptions): Redis {
  const send = client.sendCommand.bind(client);
  const onFailure = silentConnectionDropper(client, options) ?? (() => undefined);
  client.sendCommand = ((command, stream) => {
    holdWritesForTick(client.stream);
    const sent = send(command, stream);
    command.promise.then(() => {
      command.args = [];
    }, onFailure);
    return sent;
  }) as Redis['sendCommand'];
  return client;
}

/**
 * A subscriber sends nothing once subscribed, so a dead connection would never be noticed (the
 * liveness bound runs only while an answer is awaited): an idle one PINGs (allowed in subscribe
 * mode) every SUBSCRIBER_PING_INTERVAL_MS.
 */
function pingWhileSubscribed(client: Redis): Redis {
  const timer = setInterval(() => {
    if (client.status === 'ready' && client.mode === 'subscriber') client.ping().catch(() => {});
  }, SUBSCRIBER_PING_INTERVAL_MS).unref();
  client.once('end', () => clearInterval(timer));
  return client;
}

/**
 * ioredis keeps a connection's liveness timer (socketTimeout) on the client, not on the socket,
 * and clears it only when an answer comes: a connection that closes with a command unanswered
 * leaves it armed, and when it fires it destroys the connection made since, healthy or not
 * (ioredis issue 2147, fixed in ioredis 6 only). A worker whose connection a Redis outage reset
 * was cut again up to 15 s after Redis came back, its jobs held meanwhile. Cleared on close,
 * the first command on the new connection arms a timer of its own. The liveness test in this
 * package fails if an ioredis upgrade renames the field or brings the old behaviour back.
 */
function clearLivenessTimerOnClose(connection: Redis): void {
  const internals = connection as unknown as { socketTimeoutTimer?: NodeJS.Timeout };
  connection.on('close', () => {
    clearTimeout(internals.socketTimeoutTimer);
    internals.socketTimeoutTimer = undefined;
  });
}

/** clearLivenessTimerOnClose on a worker client's connection, or on each node's of a cluster. */
function guardLivenessTimer<Client extends RedisClient>(client: Client, role: RedisRole): Client {
  if (role !== 'worker') return client;
  if (client instanceof Cluster) client.on('+node', clearLivenessTimerOnClose);
  else clearLivenessTimerOnClose(client as Redis);
  return client;
}

/** Every client this process made, by role, until it ends for good. */
const clientsByRole = new Map<RedisRole, Set<RedisClient>>();

function countClient<Client extends RedisClient>(client: Client, role: RedisRole): Client {
  const clients = clientsByRole.get(role) ?? new Set<RedisClient>();
  clientsByRole.set(role, clients);
  clients.add(client);
  client.once('end', () => clients.delete(client));
  // BullMQ makes its blocking connections with duplicate(): counted too, under the same role,
  // and their liveness timer guarded like the original's.
  const duplicate = client.duplicate.bind(client) as (...args: unknown[]) => RedisClient;
  client.duplicate = ((...args: unknown[]) =>
    guardLivenessTimer(countClient(duplicate(...args), role), role)) as Client['duplicate'];
  return client;
}

const isOpen = (client: { status: string }) => client.status === 'ready' || client.status === 'connect';

/**
 * Connections this process holds to Redis now (connected or handshaking), by role. A cluster
 * client holds one per node it has talked to, and one more while it is subscribed.
 */
export function redisConnections(): Record<RedisRole, number> {
  const open: Record<RedisRole, number> = { worker: 0, producer: 0, client: 0 };
  for (const [role, clients] of clientsByRole) {
    for (const client of clients) {
      if (!(client instanceof Cluster)) open[role] += isOpen(client) ? 1 : 0;
      else for (const connection of clusterConnections(client)) open[role] += isOpen(connection) ? 1 : 0;
    }
  }
  return open;
}

/** Every client gets the same handling, however it was made. */
function managed<Client extends RedisClient>(client: Client, options: RedisClientOptions): Client {
  countClient(client, options.role);
  guardLivenessTimer(client, options.role);
  watchErrors(client, options);
  if (client instanceof Cluster) {
    // Each node has its own connection: what watchCommands does per connection, it does per node.
    client.on('+node', (node: Redis) => watchCommands(node, options));
    if (options.role === 'worker') pingClusterSubscriber(client, SUBSCRIBER_PING_INTERVAL_MS, WORKER_SOCKET_TIMEOUT_MS);
    return client;
  }
  const watched = watchCommands(client as Redis, options);
  return (options.role === 'worker' ? pingWhileSubscribed(watched) : watched) as Client;
}

/**
 * After a Sentinel failover the old master may still answer as a replica for a moment: a write
 * it refuses (READONLY) means the client is on the wrong server, so it reconnects (asking the
 * sentinels again) and the command is sent again there.
 */
function reconnectOnReadOnly(error: Error): 2 | false {
  return error.message.startsWith('READONLY') ? 2 : false;
}

function createCluster({ nodes, username, password, tls }: ClusterTarget, options: RedisClientOptions): Cluster {
  const offlineQueue = options.role === 'worker';
  const settings = clusterOptions(optionsFor(options), {
    offlineQueue,
    access: { ...credentials(username, password), ...(tls ? { tls: {} } : {}) },
  });
  return managed(new Cluster(nodes, settings), options);
}

/** The one place Redis clients are made (queues, rate limits, pub/sub, caches). */
export function createRedis(target: string | Exclude<RedisTarget, ClusterTarget>, options: RedisClientOptions): Redis;
export function createRedis(target: RedisTarget, options: RedisClientOptions): RedisClient;
export function createRedis(target: RedisTarget, options: RedisClientOptions): RedisClient {
  if (typeof target === 'string') return managed(new Redis(target, optionsFor(options)), options);
  if (isClusterTarget(target)) return createCluster(target, options);
  return managed(new Redis({ ...target, ...optionsFor(options), reconnectOnError: reconnectOnReadOnly }), options);
}

/** A new connection to the same server (or cluster) as `client`, with the options of another role. */
export function duplicateRedis<Client extends RedisClient>(client: Client, options: RedisClientOptions): Client {
  // The prototypes': the client's own duplicate() counts what it makes under its own role.
  if (client instanceof Cluster) {
    const { username, password, tls } = client.options.redisOptions ?? {};
    const offlineQueue = options.role === 'worker';
    const overrides = clusterOptions(optionsFor(options), {
      offlineQueue,
      access: { ...credentials(username, password), ...(tls ? { tls } : {}) },
    });
    return managed(Cluster.prototype.duplicate.call(client, [], overrides), options) as Client;
  }
  return managed(Redis.prototype.duplicate.call(client, optionsFor(options)), options) as Client;
}

/**
 * ioredis's messages for a command it could not send or got no answer to in time, and a
 * cluster's for one it could not route (slots unknown, every node failed, a slot without a
 * master: CLUSTERDOWN, or redirections that never settle while slots move).
 */
const UNAVAILABLE =
  /^(Command timed out|Connection is closed|Stream isn't writeable|Reached the max retries per request limit|Redis connection|Redis not ready|Cluster isn't ready|Failed to refresh slots cache|None of startup nodes is available|Too many Cluster redirections|CLUSTERDOWN)/;

/** Redis cannot serve right now (down, unreachable, silent): callers answer 503, not 500. */
export function isRedisUnavailable(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return (
    name === 'MaxRetriesPerRequestError' ||
    name === 'ClusterAllFailedError' ||
    (typeof message === 'string' && UNAVAILABLE.test(message))
  );
}

/** One pending wait per client, however many requests arrive while it connects. */
const readyWaits = new WeakMap<RedisClient, Promise<void>>();

function waitForReady(client: RedisClient, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  let onClose: (() => void) | undefined;
  return new Promise<void>((resolve, reject) => {
    onReady = resolve;
    // The connection attempt failed: fail now rather than at the bound.
    onClose = () => reject(new Error('Redis connection closed while connecting'));
    client.once('ready', onReady);
    client.once('close', onClose);
    timer = setTimeout(() => reject(new Error(`Redis not ready within ${timeoutMs} ms`)), timeoutMs);
  }).finally(() => {
    clearTimeout(timer);
    if (onReady) client.off('ready', onReady);
    if (onClose) client.off('close', onClose);
    readyWaits.delete(client);
  });
}

/**
 * Resolves once the client is ready, waiting at most `timeoutMs` while it is connecting;
 * rejects at once when it is down and waiting to retry. For request paths, which must not
 * hang on Redis but should not fail just because the process started a moment ago.
 */
export async function whenRedisReady(client: RedisClient, timeoutMs = 1000): Promise<void> {
  if (client.status === 'ready') return;
  if (client.status === 'wait') client.connect().catch(() => {});
  else if (client.status !== 'connecting' && client.status !== 'connect') {
    throw new Error(`Redis connection is ${client.status}`);
  }
  let wait = readyWaits.get(client);
  if (!wait) {
    wait = waitForReady(client, timeoutMs);
    readyWaits.set(client, wait);
  }
  return wait;
}

/**
 * Resolves once the client is ready, through failed attempts and reconnects, or rejects after
 * `timeoutMs`: for start-up, when a process cannot do its work without Redis (whenRedisReady,
 * for request paths, gives up at once while the client waits to retry).
 */
export async function redisReadyWithin(client: RedisClient, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') return;
  if (client.status === 'end') throw new Error('Redis connection is closed');
  if (client.status === 'wait') client.connect().catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  try {
    // Not events.once: it would reject on the 'error' events a reconnecting client emits.
    await new Promise<void>((resolve, reject) => {
      onReady = resolve;
      client.once('ready', onReady);
      timer = setTimeout(() => reject(new Error(`Redis not ready within ${timeoutMs} ms`)), timeoutMs);
    });
  } finally {
    clearTimeout(timer);
    if (onReady) client.off('ready', onReady);
  }
}

/** Closes a client politely, or drops it if Redis does not answer within the bound. */
export async function closeRedis(client: RedisClient, timeoutMs = 1000): Promise<void> {
  if (client.status === 'end') return;
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const outcome = await Promise.race([client.quit().catch(() => 'failed' as const), timedOut]);
  clearTimeout(timer);
  if (outcome !== 'OK') client.disconnect();
}
