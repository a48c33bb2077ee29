import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '@switchboard/logger';
import { redisReadyWithin } from '@switchboard/redis';
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
  redis: Redis;
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

/**
 * Waits for Redis (bounded), leases a worker id and renews it in the background (the timer
 * does not keep the process alive). Rejects with NoFreeWorkerIdError when every id is leased,
 * or with the Redis error when Redis does not answer: a process must not start without one.
 */
export async function acquireSnowflakeLease(options: SnowflakeLeaseOptions): Promise<SnowflakeLease> {
  const { redis, prefix, ttlMs, logger, preferredWorkerId } = options;
  const now = options.monotonicNow ?? (() => performance.now());
  const token = randomBytes(16).toString('hex');
  const key = (id: number) => workerIdLeaseKey(prefix, id);

  let workerId: number | null = null;
  let generator: SnowflakeGenerator | undefined;
  /** Monotonic time until which the last confirmed renewal keeps the key ours. */
  let validUntil = -Infinity;
  let lastId: bigint | undefined;
  let released = false;
  let refusalLogged = false;

  const held = () => workerId !== null && !released && now() < validUntil;

  function hold(id: number, sentAt: number): void {
    if (id !== workerId || !generator) generator = createSnowflakeGenerator(id);
    workerId = id;
    validUntil = sentAt + ttlMs;
    refusalLogged = false;
  }

  /** Takes a free id (the preferred one first); false when none is free. */
  async function leaseFreeId(sentAt: number): Promise<boolean> {
    const id = await takeFreeWorkerId(redis, prefix, token, ttlMs, preferredWorkerId);
    if (id === null) return false;
    if (released) {
      // release() ran while we were taking it: give it straight back.
      await releaseWorkerId(redis, key(id), token);
      return false;
    }
    hold(id, sentAt);
    if (preferredWorkerId !== undefined && id !== preferredWorkerId) {
      logger.warn({ workerId: id, preferredWorkerId }, 'preferred snowflake worker id is leased by another process; leased another');
    } else {
      logger.info({ workerId: id, ttlMs }, 'snowflake worker id leased');
    }
    return true;
  }

  async function round(): Promise<boolean> {
    if (released) return false;
    const sentAt = now();
    try {
      if (workerId !== null) {
        const outcome = await renewWorkerId(redis, key(workerId), token, ttlMs);
        if (released) return false;
        if (outcome !== 'taken-by-another') {
          if (outcome === 'retaken' || !held()) logger.warn({ workerId, outcome }, 'snowflake worker id lease restored');
          hold(workerId, sentAt);
          return true;
        }
        logger.error({ workerId }, 'another process leased this snowflake worker id; refusing ids until a free one is leased');
        workerId = null;
      }
      if (await leaseFreeId(sentAt)) return true;
      if (!released) logger.error({ prefix }, 'no free snowflake worker id; refusing ids until one is free');
      return false;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (!held() && !refusalLogged) {
        refusalLogged = true;
        logger.error({ workerId, reason }, 'snowflake lease not confirmed within its TTL; refusing ids until Redis answers');
      } else {
        logger.warn({ workerId, reason }, 'snowflake lease renewal failed');
      }
      return held();
    }
  }

  let rounds: Promise<boolean> = Promise.resolve(false);
  let pendingRounds = 0;
  const renew = (): Promise<boolean> => {
    pendingRounds += 1;
    rounds = rounds.then(round).finally(() => (pendingRounds -= 1));
    return rounds;
  };

  await redisReadyWithin(redis, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  if (!(await leaseFreeId(now()))) throw new NoFreeWorkerIdError(prefix);

  const timer = setInterval(() => {
    if (pendingRounds === 0) void renew();
  }, Math.floor(ttlMs / 3));
  timer.unref();

  const ids: SnowflakeGenerator = {
    nextBigInt() {
      if (!held()) throw new SnowflakeLeaseLostError();
      lastId = generator!.nextBigInt();
      return lastId;
    },
    next() {
      return ids.nextBigInt().toString();
    },
  };

  async function release(): Promise<void> {
    if (released) return;
    released = true;
    clearInterval(timer);
    const id = workerId;
    workerId = null;
    if (id === null) return;
    // The next holder may take the id the moment it is deleted: it must not mint in a
    // millisecond we minted in (the sequence may have borrowed one ahead of the clock).
    const lastMs = lastId === undefined ? 0 : snowflakeTimestamp(lastId).getTime();
    const aheadMs = lastMs - Date.now() + 1;
    if (aheadMs > 0) await new Promise((resolve) => setTimeout(resolve, aheadMs));
    try {
      await releaseWorkerId(redis, key(id), token);
      logger.info({ workerId: id }, 'snowflake worker id released');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn({ workerId: id, reason, ttlMs }, 'snowflake worker id not released; its lease lapses after the TTL');
    }
  }

  return { ids, workerId: () => (held() ? workerId : null), held, renew, release };
}
