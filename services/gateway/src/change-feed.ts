import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  createSessionClient,
  currentTransactionId,
  withTransaction,
  type Pool,
  type PoolClient,
  type SessionClient,
} from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import { Gauge, type Registry } from '@switchboard/metrics';

/**
 * Where the admin_auth_changed triggers notify (migration 0009: admin keys and admins; 0010:
 * webhook tokens and secrets), and where the gateway processes beat and acknowledge. Renaming
 * it strands running gateways on the old name.
 */
export const ADMIN_AUTH_CHANNEL = 'switchboard_admin_auth';

/** The longest lease a process may hold (ms): CREDENTIAL_CACHE_LEASE_MS's bound, and a beat's. */
export const MAX_LEASE_MS = 60_000;

/** Added to a lease when another process's lease must have run out: clock rates, scheduling. */
const LEASE_MARGIN_MS = 50;
const RECONNECT_BASE_MS = 250;
/** Bound on opening the feed's connection and on each of its statements (ms). */
const SESSION_TIMEOUT_MS = 5_000;
const RECONNECT_MAX_MS = 5_000;
/** Changes remembered with their acknowledgements (each a few bytes; changes are rare). */
const CHANGES_KEPT = 256;

export interface ChangeFeedOptions {
  connectionString: string;
  logger: Logger;
  /** How long a beat this process heard itself lets it trust what it cached (ms). */
  leaseMs: number;
  /** Checked every beat: once true, the feed closes itself (its owner's pool ended). */
  stopWhen(): boolean;
}

/**
 * Tells a process when the credentials it cached (admin keys and their owners, webhook tokens
 * and secrets) are still what the database holds, and lets a writer wait until every process
 * has dropped what it changed. One per process, shared by every cache of credentials.
 */
export interface ChangeFeed {
  /** Calls `listener`, synchronously, on every change heard and whenever the feed may have missed one. */
  onChange(listener: () => void): void;
  /** A mark of the change history, or null while this process may be missing changes. */
  position(): number | null;
  /** True while no change was heard since `position()` gave `mark`, and none can have been missed. */
  unchangedSince(mark: number): boolean;
  /**
   * Resolves once every gateway process that may answer from its cache has applied the
   * committed change of transaction `txid`, or its lease ran out (within the lease, always).
   */
  applied(txid: string): Promise<void>;
  close(): void;
}

interface HeardChange {
  /** Processes that could still answer from their caches when it was heard; null: not known. */
  required: Set<string> | null;
  acknowledged: Set<string>;
}

const now = (): number => performance.now();

/**
 * A LISTEN connection whose completeness is proven by a lease. Every process beats on the
 * channel (`b <token> <seq> <leaseMs>`) every quarter lease; notifications arrive in commit order, so
 * hearing its own beat proves the process heard every change committed before that beat, and
 * it trusts its cache until the beat's send time plus the lease. A lost connection (changes
 * during the gap are lost) drops the lease and everything cached. A change (`c <txid>`, from
 * the triggers) is acknowledged by every process that hears it (`a <token> <txid>`); the writer
 * waits for the acknowledgements of every process it heard beat within a lease before the
 * change, or, where it cannot know them (its own feed not live for a lease), for the lease
 * itself: a process that did not hear the change by then no longer trusts its cache.
 */
class LeasedChangeFeed implements ChangeFeed {
  private readonly options: ChangeFeedOptions;
  private readonly token = randomUUID();
  /** The connection being opened or listening; events of any other are stale. */
  private current: SessionClient | null = null;
  private listening = false;
  private closed = false;
  /** Moves on every change heard and every lost connection: a cache fill compares it. */
  private epoch = 0;
  private leaseUntil = 0;
  /** Send time of the first own beat heard on this connection: since then nothing was missed. */
  private liveSince: number | null = null;
  private beatSeq = 0;
  private beatInFlight = false;
  private readonly beatsSent = new Map<number, number>();
  /** When each process's beat was last heard. */
  private readonly peers = new Map<string, { heardAt: number; leaseMs: number }>();
  private readonly changes = new Map<string, HeardChange>();
  private readonly waiters = new Set<() => void>();
  private readonly listeners: Array<() => void> = [];
  private failures = 0;
  private readonly beatTimer: NodeJS.Timeout;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(options: ChangeFeedOptions) {
    this.options = options;
    this.beatTimer = setInterval(() => this.beat(), Math.max(1, Math.floor(options.leaseMs / 4))).unref();
    void this.connect();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  position(): number | null {
    return now() < this.leaseUntil ? this.epoch : null;
  }

  unchangedSince(mark: number): boolean {
    return this.epoch === mark && now() < this.leaseUntil;
  }

  async applied(txid: string): Promise<void> {
    const deadline = now() + this.longestLeaseMs() + LEASE_MARGIN_MS;
    const done = (): boolean => {
      const change = this.changes.get(txid);
      if (!change?.required) return false;
      // A process that said goodbye since no longer answers from memory.
      for (const peer of change.required) if (!change.acknowledged.has(peer) && this.peers.has(peer)) return false;
      return true;
    };
    if (done()) return;
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const check = () => (this.closed || done()) && finish();
      const timer = setTimeout(finish, Math.max(0, deadline - now()));
      this.waiters.add(check);
    });
  }

  close(): void {
    this.closed = true;
    clearInterval(this.beatTimer);
    clearTimeout(this.reconnectTimer);
    for (const waiter of this.waiters) waiter();
    const client = this.current;
    const listening = this.listening;
    this.current = null;
    this.listening = false;
    this.dropLease();
    if (!client) return;
    // Goodbye (`g <token>`): the others stop counting on this process's acknowledgements.
    const goodbye = listening ? this.send(client, `g ${this.token}`) : Promise.resolve();
    void goodbye.finally(() => client.end().catch(() => {}));
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = createSessionClient({
      connectionString: this.options.connectionString,
      applicationName: 'gateway-credential-feed',
      // Generous: a beat that is late costs the lease, not the connection.
      connectTimeoutMs: Math.max(this.options.leaseMs, SESSION_TIMEOUT_MS),
      queryTimeoutMs: Math.max(this.options.leaseMs, SESSION_TIMEOUT_MS),
    });
    client.on('notification', (message) => this.hear(message.payload ?? ''));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    this.current = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${ADMIN_AUTH_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.current !== client) return;
    this.listening = true;
    this.failures = 0;
    this.beat();
  }

  /** The connection failed: changes may be lost from here on, so nothing cached is trusted. */
  private lost(client: SessionClient, error?: unknown): void {
    if (this.current !== client) return;
    this.current = null;
    this.listening = false;
    this.dropLease();
    void client.end().catch(() => {});
    if (this.closed) return;
    if (error)
      this.options.logger.warn(
        { reason: (error as Error).message },
        'credential change feed lost; admin keys and webhooks are read from the database until it is back',
      );
    const delay = Math.min(RECONNECT_BASE_MS * 2 ** this.failures, RECONNECT_MAX_MS);
    this.failures += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay).unref();
  }

  /**
   * The longest lease any process may hold: ours, or a longer one a process stated in a beat
   * we still remember (during a rolling change of CREDENTIAL_CACHE_LEASE_MS the values differ).
   */
  private longestLeaseMs(): number {
    let longest = this.options.leaseMs;
    for (const { leaseMs } of this.peers.values()) longest = Math.max(longest, leaseMs);
    return longest;
  }

  private dropLease(): void {
    this.epoch += 1;
    this.leaseUntil = 0;
    this.liveSince = null;
    this.beatsSent.clear();
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  private beat(): void {
    if (this.options.stopWhen()) {
      this.close();
      return;
    }
    const client = this.current;
    if (!client || !this.listening || this.beatInFlight) return;
    const seq = ++this.beatSeq;
    this.beatsSent.set(seq, now());
    this.beatInFlight = true;
    this.send(client, `b ${this.token} ${seq} ${this.options.leaseMs}`).finally(() => (this.beatInFlight = false));
    const at = now();
    for (const [peer, { heardAt, leaseMs }] of this.peers)
      if (heardAt < at - 2 * Math.max(leaseMs, this.options.leaseMs)) this.peers.delete(peer);
  }

  private send(client: SessionClient, payload: string): Promise<void> {
    return client.query('SELECT pg_notify($1, $2)', [ADMIN_AUTH_CHANNEL, payload]).then(
      () => undefined,
      (error: unknown) => this.lost(client, error),
    );
  }

  private hear(payload: string): void {
    const [kind, first, second, third] = payload.split(' ');
    if (kind === 'c' && first) this.heardChange(first);
    else if (kind === 'b' && first && second) this.heardBeat(first, Number(second), Number(third));
    else if (kind === 'a' && first && second) this.heardAcknowledgement(first, second);
    else if (kind === 'g' && first) this.peers.delete(first);
    for (const waiter of this.waiters) waiter();
  }

  private heardChange(txid: string): void {
    this.epoch += 1;
    this.changed();
    const at = now();
    // Complete only if this feed heard every beat of the last lease: a process whose lease
    // covers this moment beat within it, and its beat committed before this change.
    const knowsEveryone = this.liveSince !== null && this.liveSince <= at - this.longestLeaseMs();
    const required = knowsEveryone
      ? new Set([...this.peers].filter(([, peer]) => peer.heardAt >= at - peer.leaseMs).map(([token]) => token))
      : null;
    this.changes.set(txid, { required, acknowledged: new Set([this.token]) });
    if (this.changes.size > CHANGES_KEPT) this.changes.delete(this.changes.keys().next().value!);
    if (this.current && this.listening) void this.send(this.current, `a ${this.token} ${txid}`);
  }

  private heardBeat(peer: string, seq: number, leaseMs: number): void {
    // A lease the beat does not state is taken to be ours (replicas should share CREDENTIAL_CACHE_LEASE_MS).
    this.peers.set(peer, {
      heardAt: now(),
      leaseMs: Number.isFinite(leaseMs) ? Math.min(leaseMs, MAX_LEASE_MS) : this.options.leaseMs,
    });
    if (peer !== this.token) return;
    const sentAt = this.beatsSent.get(seq);
    if (sentAt === undefined) return;
    for (const sent of this.beatsSent.keys()) if (sent <= seq) this.beatsSent.delete(sent);
    this.leaseUntil = Math.max(this.leaseUntil, sentAt + this.options.leaseMs);
    this.liveSince ??= sentAt;
  }

  private heardAcknowledgement(peer: string, txid: string): void {
    this.changes.get(txid)?.acknowledged.add(peer);
  }
}

export function createChangeFeed(options: ChangeFeedOptions): ChangeFeed {
  return new LeasedChangeFeed(options);
}

/**
 * Runs `work` in a transaction; when it says it changed a credential, answers only after the
 * commit, once every gateway process that may answer from memory applied it (`applied`), so
 * from the answer on no replica accepts what was deleted or checks against an old secret.
 * With no feed (CREDENTIAL_CACHE_LEASE_MS=0) nothing is cached and nothing is waited for.
 */
export async function commitCredentialChange<T>(
  pool: Pool,
  feed: ChangeFeed | null,
  work: (client: PoolClient) => Promise<{ result: T; changed: boolean }>,
): Promise<T> {
  const { result, changedIn } = await withTransaction(pool, async (client) => {
    const done = await work(client);
    // Only a feed waits on the id: with none, nothing was cached and no statement is spent.
    return { result: done.result, changedIn: done.changed && feed ? await currentTransactionId(client) : null };
  });
  if (changedIn !== null) await feed?.applied(changedIn);
  return result;
}

/** `credential_change_feed_live` on `/metrics`: 1 while the feed holds its lease. */
export function exportFeedState(registry: Registry, feed: ChangeFeed): void {
  new Gauge({
    name: 'credential_change_feed_live',
    help: 'Gateway processes whose credential change feed holds its lease (1 each): only they answer admin keys and webhooks from memory.',
    registers: [registry],
    collect() {
      this.set(feed.position() !== null ? 1 : 0);
    },
  });
}
