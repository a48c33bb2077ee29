import { randomInt } from 'node:crypto';
import { MAX_WORKER_ID } from './generator.ts';
import type { RedisClient } from '@switchboard/redis';

/** The key whose value is the token of the process holding `workerId`, while it is leased. */
export function workerIdLeaseKey(prefix: string, workerId: number): string {
  return `${prefix}:snowflake:worker:${workerId}`;
}

/**
 * Extends the lease when `token` still owns it; takes it again when the key is gone (it
 * expired, so no one holds the id now); leaves another owner's lease alone.
 * Returns 1 (renewed), 2 (taken again) or 0 (another process holds it).
 */
const RENEW_SCRIPT = `
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not owner then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0`;

/** Deletes the lease only when `token` owns it: a lease that expired and went to another process stays theirs. */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

export type RenewOutcome = 'renewed' | 'retaken' | 'taken-by-another';

export async function renewWorkerId(
  redis: RedisClient,
  key: string,
  token: string,
  ttlMs: number,
): Promise<RenewOutcome> {
  const outcome = await redis.eval(RENEW_SCRIPT, 1, key, token, ttlMs);
  return outcome === 1 ? 'renewed' : outcome === 2 ? 'retaken' : 'taken-by-another';
}

export async function releaseWorkerId(redis: RedisClient, key: string, token: string): Promise<void> {
  await redis.eval(RELEASE_SCRIPT, 1, key, token);
}

async function takeWorkerId(
  redis: RedisClient,
  prefix: string,
  workerId: number,
  token: string,
  ttlMs: number,
): Promise<boolean> {
  return (await redis.set(workerIdLeaseKey(prefix, workerId), token, 'PX', ttlMs, 'NX')) === 'OK';
}

/**
 * Leases `preferred` when it is free, else the first free id from a random start, trying each
 * of the 1024 ids at most once (so "none free" is definite). The random start keeps replicas
 * that start together from racing for the same ids. One round trip per try: only a nearly full
 * id space makes this slow. Returns null when every id is leased.
 */
export async function takeFreeWorkerId(
  redis: RedisClient,
  prefix: string,
  token: string,
  ttlMs: number,
  preferred: number | undefined,
): Promise<number | null> {
  if (preferred !== undefined && (await takeWorkerId(redis, prefix, preferred, token, ttlMs))) return preferred;
  const ids = MAX_WORKER_ID + 1;
  const start = randomInt(ids);
  for (let offset = 0; offset < ids; offset++) {
    const workerId = (start + offset) % ids;
    if (workerId === preferred) continue;
    if (await takeWorkerId(redis, prefix, workerId, token, ttlMs)) return workerId;
  }
  return null;
}
