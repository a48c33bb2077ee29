import { readIpBanVersion, type Pool } from '@switchboard/db';
import type { IpNetwork } from '@switchboard/ip';
import type { Logger } from '@switchboard/logger';
import type { Registry } from '@switchboard/metrics';
import { closeRedis, duplicateRedis, type RedisClient } from '@switchboard/redis';
import { currentIpBanSequence, ipBanChannel, parseIpBanMessage, publishIpBanDelta } from './channel.ts';
import type { IpBanDelta, IpBanEntry } from './entry.ts';
import { LiveIpBanIndex } from './live-index.ts';
import { loadIpBans } from './loader.ts';
import { ipBanMetrics, type IpBanMetrics } from './metrics.ts';

export interface IpBansOptions {
  pool: Pool;
  /** The request-path client: publishes changes and reads the sequence. Closing it stops this. */
  redis: RedisClient;
  prefix: string;
  logger: Logger;
  /**
   * Safety net: this often (milliseconds) the ip_bans change counter is read, and everything
   * reloaded when it moved since the last load, whatever the messages said.
   */
  fullReloadMs: number;
  /** Changed entries the overlay may hold before the base is rebuilt with them. */
  overlayLimit: number;
  /** How long the start waits for the subscription before loading without it (milliseconds). */
  subscribeWaitMs?: number;
  /** Where the index size and reload times are exported (`/metrics`); none when absent. */
  metrics?: Registry;
}

/** The IP bans this replica enforces, kept in step with every other replica. */
export interface IpBans {
  /** The most specific live ban covering the whole of `query`, or null. */
  match(query: IpNetwork, nowMs?: number): IpBanEntry | null;
  /** Whether a live ban covers the whole of `query` (match without building the answer). */
  covers(query: IpNetwork, nowMs?: number): boolean;
  /** True once the first full load finished. */
  readonly loaded: boolean;
  /** Resolves true once loaded, or false when `timeoutMs` passes first. */
  whenLoaded(timeoutMs: number): Promise<boolean>;
  /** Applies a committed change here at once and publishes it to every replica. */
  change(delta: IpBanDelta): Promise<void>;
  /** Reloads everything from the database now (resolves when that load ended). */
  reload(reason: string): Promise<void>;
  /** Reloads everything if the ip_bans change counter moved since the last load (resolves when done). */
  reloadIfChanged(reason: string): Promise<void>;
  close(): Promise<void>;
}

const RETRY_BASE_MS = 250;
const RETRY_MAX_MS = 30_000;

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Loads every live ban at start, then follows changes over Redis pub/sub: each message carries
 * a change and a sequence number, and a skipped number, a (re)subscription or an unreadable
 * message means something may have been missed, so everything is reloaded. Changes arriving
 * during a load are kept and re-applied on top of it; the old index answers until the new one
 * is swapped in. The safety net for a publish that never happened (Redis down at the moment of
 * a change, a replica gone between commit and publish) is a periodic read of the ip_bans change
 * counter, recorded with every load: it reloads only when the counter moved.
 */
class IpBanSync implements IpBans {
  private readonly options: IpBansOptions;
  private readonly index = new LiveIpBanIndex();
  private loadedBytes = 0;
  private readonly metrics: IpBanMetrics | undefined;
  private readonly subscriber: RedisClient;
  private readonly channel: string;
  private isLoaded = false;
  private markLoaded!: () => void;
  private readonly firstLoad = new Promise<void>((resolve) => (this.markLoaded = resolve));
  private markSubscribed!: () => void;
  private readonly firstSubscription = new Promise<void>((resolve) => (this.markSubscribed = resolve));
  private started = false;
  private closed = false;
  /** Last sequence number applied; null while unknown (the next message sets it). */
  private lastSeq: number | null = null;
  /** Set while the sequence number is being read: messages then only raise this. */
  private seenWhileSyncing: number | null | undefined;
  /** Changes received during a load, re-applied on top of it. */
  private pending: IpBanDelta[] | null = null;
  private running: Promise<void> | null = null;
  private reloadQueued: string | null = null;
  /** The change counter the current base was loaded at (null before the first load). */
  private loadedVersion: string | null = null;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly periodic: NodeJS.Timeout;

  constructor(options: IpBansOptions) {
    this.options = options;
    this.channel = ipBanChannel(options.prefix);
    this.metrics =
      options.metrics &&
      ipBanMetrics(options.metrics, {
        baseEntries: () => this.index.baseSize,
        overlayEntries: () => this.index.overlaySize,
        baseBytes: () => this.loadedBytes,
      });
    // Subscribe mode blocks the connection, so it needs one of its own; it waits for Redis.
    this.subscriber = duplicateRedis(options.redis, {
      role: 'worker',
      name: `ip-bans:${options.prefix}`,
      logger: options.logger,
    });
    this.subscriber.on('message', (_channel: string, message: string) => this.receive(message));
    this.subscriber.on('ready', () => void this.subscribe());
    options.redis.once('end', () => void this.close());
    this.periodic = setInterval(() => void this.reloadIfChanged('periodic'), options.fullReloadMs).unref();
    void this.start();
  }

  get loaded(): boolean {
    return this.isLoaded;
  }

  match(query: IpNetwork, nowMs = Date.now()): IpBanEntry | null {
    return this.index.match(query, nowMs);
  }

  covers(query: IpNetwork, nowMs = Date.now()): boolean {
    return this.index.covers(query, nowMs);
  }

  async whenLoaded(timeoutMs: number): Promise<boolean> {
    if (this.isLoaded) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const outcome = await Promise.race([this.firstLoad.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return outcome;
  }

  async change(delta: IpBanDelta): Promise<void> {
    this.apply(delta);
    try {
      await publishIpBanDelta(this.options.redis, this.options.prefix, delta);
    } catch (error) {
      this.options.logger.warn(
        { reason: reasonOf(error) },
        'could not publish an IP ban change; other replicas pick it up at their next full reload',
      );
    }
  }

  reload(reason: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.reloadQueued ??= reason;
      return this.running;
    }
    this.running = this.load(reason).finally(() => {
      this.running = null;
      const queued = this.reloadQueued;
      this.reloadQueued = null;
      if (queued !== null) void this.reload(queued);
    });
    return this.running;
  }

  async reloadIfChanged(reason: string): Promise<void> {
    // A load under way reads a newer snapshot; the next check compares against that.
    if (this.closed || this.running) return this.running ?? undefined;
    let current: string | null = null;
    try {
      current = await readIpBanVersion(this.options.pool);
    } catch (error) {
      this.options.logger.warn({ reason: reasonOf(error) }, 'could not read the IP ban change counter; reloading');
    }
    if (current !== null && current === this.loadedVersion) return;
    await this.reload(reason);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.periodic);
    clearTimeout(this.retryTimer);
    await closeRedis(this.subscriber);
  }

  /** Waits (bounded) for the subscription so the first load already follows changes. */
  private async start(): Promise<void> {
    const waitMs = this.options.subscribeWaitMs ?? 2_000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.firstSubscription, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    this.started = true;
    await this.reload('start');
  }

  private async subscribe(): Promise<void> {
    try {
      await this.subscriber.subscribe(this.channel);
    } catch (error) {
      // The next 'ready' tries again.
      this.options.logger.warn({ reason: reasonOf(error) }, 'could not subscribe to IP ban changes');
      return;
    }
    this.markSubscribed();
    // Messages may have been missed while unsubscribed.
    if (this.started) void this.reload('subscribed');
  }

  private async load(reason: string): Promise<void> {
    const startedAt = performance.now();
    this.pending = [];
    try {
      await this.syncSequence();
      const { index, skipped, version } = await loadIpBans(this.options.pool);
      if (this.closed) return;
      this.index.replaceBase(index, this.pending);
      this.loadedBytes = index.byteLength;
      this.loadedVersion = version;
      this.failures = 0;
      const seconds = (performance.now() - startedAt) / 1000;
      this.metrics?.reloaded('loaded', seconds);
      const ms = Math.round(seconds * 1000);
      const mib = Math.round(index.byteLength / 2 ** 20);
      this.options.logger.info({ reason, entries: index.size, skipped, version, ms, mib }, 'IP bans loaded');
      if (skipped > 0) this.options.logger.warn({ skipped }, 'stored IP bans that do not parse are not enforced');
      this.isLoaded = true;
      this.markLoaded();
    } catch (error) {
      this.metrics?.reloaded('failed', (performance.now() - startedAt) / 1000);
      this.scheduleRetry(reason, error);
    } finally {
      this.pending = null;
    }
  }

  private scheduleRetry(reason: string, error: unknown): void {
    if (this.closed) return;
    const delayMs = Math.min(RETRY_BASE_MS * 2 ** this.failures, RETRY_MAX_MS);
    this.failures++;
    this.options.logger.warn({ reason, error: reasonOf(error), retryInMs: delayMs }, 'IP ban load failed');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.reload(`retry after: ${reason}`), delayMs).unref();
  }

  /**
   * Reads the sequence number before loading: every change numbered up to it was committed
   * before the load reads, so the load reflects it; later numbers arrive as messages.
   */
  private async syncSequence(): Promise<void> {
    this.seenWhileSyncing = null;
    try {
      const current = await currentIpBanSequence(this.options.redis, this.options.prefix);
      this.lastSeq = Math.max(current, this.seenWhileSyncing ?? 0);
    } catch {
      this.lastSeq = null;
    } finally {
      this.seenWhileSyncing = undefined;
    }
  }

  private receive(message: string): void {
    const received = parseIpBanMessage(message);
    if (!received.ok) {
      this.options.logger.warn({ seq: received.seq }, 'unreadable IP ban message; reloading');
      if (received.seq !== null) this.lastSeq = received.seq;
      void this.reload('unreadable message');
      return;
    }
    const { seq, delta } = received;
    if (this.seenWhileSyncing !== undefined) {
      this.seenWhileSyncing = Math.max(this.seenWhileSyncing ?? 0, seq);
    } else {
      if (this.lastSeq !== null && seq <= this.lastSeq) return; // already reflected
      const gap = this.lastSeq !== null && seq !== this.lastSeq + 1;
      this.lastSeq = seq;
      if (gap) void this.reload('sequence gap');
    }
    this.apply(delta);
  }

  private apply(delta: IpBanDelta): void {
    this.index.apply(delta);
    this.pending?.push(delta);
    // Folding the overlay into a new base keeps lookups and overlay rebuilds cheap.
    if (!this.running && this.index.overlaySize > this.options.overlayLimit) void this.reload('overlay limit');
  }
}

export function createIpBans(options: IpBansOptions): IpBans {
  return new IpBanSync(options);
}
