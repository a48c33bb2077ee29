import { promises as dns } from 'node:dns';
import type { Logger } from '@switchboard/logger';
import type { RedisClient } from '@switchboard/redis';

export interface ReverseDnsOptions {
  redis: RedisClient;
  prefix: string;
  /** `host[:port]` of the resolvers to ask; empty: the system's. */
  servers: readonly string[];
  /** One try per address, bounded by this (milliseconds). */
  timeoutMs: number;
  logger: Logger;
}

/** Names for addresses: the first PTR name, or null (none, or the lookup failed). */
export type ReverseDnsLookup = (addresses: readonly string[]) => Promise<Map<string, string | null>>;

/** An answer (a name, or "there is none") holds for a day. */
const ANSWER_TTL_SECONDS = 86_400;
/** A failure (timeout, refused) is remembered briefly, so a dead resolver does not slow every list. */
const FAILURE_TTL_SECONDS = 60;
/** Stored for "no name", so that it is a cache hit too. */
const NONE = '';
const NO_NAME_CODES: ReadonlySet<string> = new Set([dns.NOTFOUND, dns.NODATA]);

type Outcome = { name: string | null; ttlSeconds: number };

function createResolver(servers: readonly string[], timeoutMs: number): dns.Resolver {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return resolver;
}

async function lookup(resolver: dns.Resolver, address: string, timeoutMs: number): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  // c-ares honours the timeout; this bounds anything else (a resolver that never answers).
  const bound = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ name: null, ttlSeconds: FAILURE_TTL_SECONDS }), timeoutMs + 100);
  });
  const answer = resolver.reverse(address).then(
    (names): Outcome => ({ name: names[0] ?? null, ttlSeconds: ANSWER_TTL_SECONDS }),
    (error: NodeJS.ErrnoException): Outcome => ({
      name: null,
      ttlSeconds: NO_NAME_CODES.has(error.code ?? '') ? ANSWER_TTL_SECONDS : FAILURE_TTL_SECONDS,
    }),
  );
  try {
    return await Promise.race([answer, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reverse DNS for list pages: the cached names read at once (`<prefix>:rdns:<ip>`), then every
 * miss looked up at once, then the answers written back at once. A Redis failure only costs
 * the cache; a DNS failure gives null.
 */
export function createReverseDns({ redis, prefix, servers, timeoutMs, logger }: ReverseDnsOptions): ReverseDnsLookup {
  const resolver = createResolver(servers, timeoutMs);
  const keyOf = (address: string) => `${prefix}:rdns:${address}`;

  return async (addresses) => {
    const names = new Map<string, string | null>();
    const unique = [...new Set(addresses)];
    if (unique.length === 0) return names;
    // One GET per name, not MGET (nor a pipeline for the writes): on a Redis Cluster the names
    // are in different slots. They still leave in one write (createRedis holds a tick's commands).
    const cached = await Promise.all(unique.map((address) => redis.get(keyOf(address)))).catch(() =>
      unique.map(() => null),
    );
    const misses: string[] = [];
    unique.forEach((address, i) => {
      const hit = cached[i];
      if (hit === null || hit === undefined) misses.push(address);
      else names.set(address, hit === NONE ? null : hit);
    });
    const outcomes = await Promise.all(misses.map((address) => lookup(resolver, address, timeoutMs)));
    const writes = misses.map((address, i) => {
      const outcome = outcomes[i]!;
      names.set(address, outcome.name);
      return redis.set(keyOf(address), outcome.name ?? NONE, 'EX', outcome.ttlSeconds);
    });
    if (misses.length > 0) {
      await Promise.all(writes).catch((error: unknown) => {
        logger.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'could not cache reverse DNS names',
        );
      });
    }
    return names;
  };
}
