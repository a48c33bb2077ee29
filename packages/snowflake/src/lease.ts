import { randomBytes } from 'node:crypto';
import type { Logger } from '@switchboard/logger';
import { redisReadyWithin, type RedisClient } from '@switchboard/redis';
import { createSnowflakeGenerator, snowflakeTimestamp, type SnowflakeGenerator } from './generator.ts';
import { releaseWorkerId, renewWorkerId, takeFreeWorkerId, workerIdLeaseKey } from './lease-keys.ts';

/**
 * Worker-id leases: no two live processes mint ids under one worker id, whatever
 * SNOWFLAKE_WORKER_ID says. A process holds `<prefix>:snowflake:worker:<id>` (its random token,
 * `SET NX PX ttl`), renews it every third of the TTL (compare-and-set), and deletes it on clean
 * shutdown (compare-and-delete).
 *
 * Losing the lease: once the last renewal Redis confirmed is a TTL old (Redis away, or this
 * process stalled), or a renewal finds another owner, the key may be someone else's, so `ids`
 * refuses: next() throws SnowflakeLeaseLostError (the gateway answers 503, a job's attempt
 * fails and is retried). Each renewal round then tries again: the key still ours or gone →
 * the same id again; another owner → a fresh free id. Validity is measured from when the
 * confirmed renewal was *sent*, on the monotonic clock, so this process stops minting no later
 * than Redis lets the key expire.
 *
 * Why a successor cannot repeat our ids: ids carry their millisecond, and the next holder takes
 * an id only after our key expired or we deleted it, and we delete it only once the clock has
 * passed the last millisecond we minted in; with clocks kept in sync (NTP) its ids come later.
 * What no lease can guard against: Redis losing the key while we hold it (a restart without
 * persistence, a failover to a replica that missed the write); we see it at the next renewal.
 */

export interface SnowflakeLeaseOptions {
  /** A fail-fast client (createRedis role `client`): a renewal must fail while Redis is away, not queue. */
  redis: RedisClient;
  /** REDIS_PREFIX. */
  prefix: string;
  /** SNOWFLAKE_WORKER_ID: leased when free; otherwise another free id is, and the log says which. */
  preferredWorkerId?: number | undefined;
  /** SNOWFLAKE_LEASE_TTL_MS. The lease is renewed every third of it. */
  ttlMs: number;
  logger: Logger;
  /** How long start-up waits for Redis (through reconnects) before it gives up. */
  connectTimeoutMs?: number;
  /** Monotonic milliseconds; tests pass their own to let a lease lapse without waiting. */
  monotonicNow?: () => number;
}

export interface SnowflakeLease {
  /** Ids under the leased worker id; next() throws SnowflakeLeaseLostError while none is held. */
  ids: SnowflakeGenerator;
  /** The worker id `ids` mints under now; null while they are refused. */
  workerId(): number | null;
  /** Whether `ids` mints now. */
  held(): boolean;
  /** One renewal round, as the timer runs it (rounds never overlap); resolves to held(). */
  renew(): Promise<boolean>;
  /** Stops renewing and minting, then deletes the key if it is still ours. Unbounded: callers bound it. */
  release(): Promise<void>;
}

/** No worker id is leased right now: an id minted now might be another process's. */
export class SnowflakeLeaseLostError extends Error {
  override readonly name = 'SnowflakeLeaseLostError';
  constructor() {
    super('No snowflake worker id is leased; ids are refused until one is');
  }
}

/** Every one of the 1024 worker ids is leased by a live process. */
export class NoFreeWorkerIdError extends Error {
  override readonly name = 'NoFreeWorkerIdError';
  constructor(prefix: string) {
    super(`No free snowflake worker id: all 1024 under Redis prefix "${prefix}" are leased by live processes`);
  }
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/** How soon a round that Redis did not answer is tried again (at most every third of the TTL). */
const RETRY_MS = 500;

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class RedisWorkerIdLease implements SnowflakeLease {
  readonly ids: SnowflakeGenerator;
  private readonly options: SnowflakeLeaseOptions;
  private readonly now: () => number;
  /** Random per process: the compare-and-set scripts act only on keys holding it. */
  private readonly token = randomBytes(16).toString('hex');
  private leasedId: number | null = null;
  private generator: SnowflakeGenerator | undefined;
  /** Monotonic time until which the last renewal Redis confirmed keeps the key ours. */
  private validUntil = -Infinity;
  private lastId: bigint | undefined;
  private released = false;
  private refusalLogged = false;
  private rounds: Promise<boolean> = Promise.resolve(false);
  private pendingRounds = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Whether the last round got Redis's answer (else the next comes after RETRY_MS). */
  private redisAnswered = false;

  constructor(options: SnowflakeLeaseOptions) {
    this.options = options;
    this.now = options.monotonicNow ?? (() => performance.now());
    this.ids = {
      nextBigInt: () => {
        if (!this.held()) throw new SnowflakeLeaseLostError();
        this.lastId = this.generator!.nextBigInt();
        return this.lastId;
      },
      next: () => this.ids.nextBigInt().toString(),
    };
  }

  /**
   * The first lease, then a renewal round every third of the TTL; while Redis does not answer,
   * every RETRY_MS instead, so a lease lost to an outage longer than the TTL is back as soon as
   * Redis is, not up to a third of the TTL later (scheduleRound). The timer keeps no process alive.
   */
  async start(): Promise<void> {
    if (!(await this.leaseFreeId(this.now()))) throw new NoFreeWorkerIdError(this.options.prefix);
    this.redisAnswered = true;
    this.scheduleRound();
  }

  /** The next round, a third of the TTL after the last one, or RETRY_MS after one Redis did not answer. */
  private scheduleRound(): void {
    clearTimeout(this.timer);
    if (this.released) return;
    const interval = Math.floor(this.options.ttlMs / 3);
    this.timer = setTimeout(() => void this.renew(), this.redisAnswered ? interval : Math.min(RETRY_MS, interval));
    this.timer.unref();
  }

  held(): boolean {
    return this.leasedId !== null && !this.released && this.now() < this.validUntil;
  }

  workerId(): number | null {
    return this.held() ? this.leasedId : null;
  }

  renew(): Promise<boolean> {
    this.pendingRounds += 1;
    this.rounds = this.rounds
      .then(() => this.round())
      .finally(() => {
        this.pendingRounds -= 1;
        if (this.pendingRounds === 0) this.scheduleRound();
      });
    return this.rounds;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearTimeout(this.timer);
    const id = this.leasedId;
    this.leasedId = null;
    if (id === null) return;
    // The next holder may take the id the moment it is deleted: it must not mint in a
    // millisecond we minted in (the sequence may have borrowed one ahead of the clock).
    const aheadMs = (this.lastId === undefined ? 0 : snowflakeTimestamp(this.lastId).getTime()) - Date.now() + 1;
    if (aheadMs > 0) await new Promise((resolve) => setTimeout(resolve, aheadMs));
    const { redis, logger, ttlMs } = this.options;
    try {
      await releaseWorkerId(redis, this.key(id), this.token);
      logger.info({ workerId: id }, 'snowflake worker id released');
    } catch (error) {
      logger.warn(
        { workerId: id, reason: reasonOf(error), ttlMs },
        'snowflake worker id not released; its lease lapses after the TTL',
      );
    }
  }

  private key(id: number): string {
    return workerIdLeaseKey(this.options.prefix, id);
  }

  private hold(id: number, sentAt: number): void {
    if (id !== this.leasedId || !this.generator) this.generator = createSnowflakeGenerator(id);
    this.leasedId = id;
    this.validUntil = sentAt + this.options.ttlMs;
    this.refusalLogged = false;
  }

  /** Takes a free id (the preferred one first); false when none is free. */
  private async leaseFreeId(sentAt: number): Promise<boolean> {
    const { redis, prefix, ttlMs, preferredWorkerId, logger } = this.options;
    const id = await takeFreeWorkerId(redis, prefix, this.token, ttlMs, preferredWorkerId);
    if (id === null) return false;
    if (this.released) {
      // release() ran while we were taking it: give it straight back.
      await releaseWorkerId(redis, this.key(id), this.token);
      return false;
    }
    this.hold(id, sentAt);
    if (preferredWorkerId !== undefined && id !== preferredWorkerId) {
      logger.warn(
        { workerId: id, preferredWorkerId },
        'preferred snowflake worker id is leased by another process; leased another',
      );
    } else {
      logger.info({ workerId: id, ttlMs }, 'snowflake worker id leased');
    }
    return true;
  }

  /** Renews the id held, or takes it back; when another process holds it, leases a free one. */
  private async round(): Promise<boolean> {
    if (this.released) return false;
    const { logger } = this.options;
    const sentAt = this.now();
    const workerId = this.leasedId;
    try {
      const held = await this.renewOrLease(workerId, sentAt);
      this.redisAnswered = true;
      return held;
    } catch (error) {
      const firstFailure = this.redisAnswered;
      this.redisAnswered = false;
      if (!this.held() && !this.refusalLogged) {
        this.refusalLogged = true;
        logger.error(
          { workerId, reason: reasonOf(error) },
          'snowflake lease not confirmed within its TTL; refusing ids until Redis answers',
        );
      } else if (firstFailure) {
        logger.warn(
          { workerId, reason: reasonOf(error), retryMs: RETRY_MS },
          'snowflake lease renewal failed; retrying until Redis answers',
        );
      } else {
        // Every RETRY_MS while Redis is away: the first failure said so already.
        logger.debug({ workerId, reason: reasonOf(error) }, 'snowflake lease renewal failed');
      }
      return this.held();
    }
  }

  private async renewOrLease(workerId: number | null, sentAt: number): Promise<boolean> {
    const { redis, ttlMs, logger, prefix } = this.options;
    if (workerId !== null) {
      const outcome = await renewWorkerId(redis, this.key(workerId), this.token, ttlMs);
      if (this.released) return false;
      if (outcome !== 'taken-by-another') {
        if (outcome === 'retaken' || !this.held())
          logger.warn({ workerId, outcome }, 'snowflake worker id lease restored');
        this.hold(workerId, sentAt);
        return true;
      }
      logger.error(
        { workerId },
        'another process leased this snowflake worker id; refusing ids until a free one is leased',
      );
      this.leasedId = null;
    }
    if (await this.leaseFreeId(sentAt)) return true;
    if (!this.released) logger.error({ prefix }, 'no free snowflake worker id; refusing ids until one is free');
    return false;
  }
}

/**
 * Waits for Redis (bounded), leases a worker id and renews it in the background. Rejects with
 * NoFreeWorkerIdError when every id is leased, or with the Redis error when Redis does not
 * answer: a process must not start without one.
 */
export async function acquireSnowflakeLease(options: SnowflakeLeaseOptions): Promise<SnowflakeLease> {
  await redisReadyWithin(options.redis, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  const lease = new RedisWorkerIdLease(options);
  await lease.start();
  return lease;
}
