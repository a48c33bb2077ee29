import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { watchEventLoop } from '@switchboard/testkit/event-loop';
import { ipBanChannel } from '../src/ip-bans/index.ts';
import { createAdmin, type AdminFixture } from './admin-helpers.ts';
import { banCaller } from './bans-helpers.ts';
import { startGateway, type RunningGateway } from './helpers.ts';

const environment = useTestEnvironment();
let gateway: RunningGateway;
let admin: AdminFixture;

/** Seeded set-based, like a real ban list: IPv4 and IPv6 addresses and IPv4 /24 ranges. */
const SEED = [
  { count: 150_000, network: `set_masklen('11.0.0.0'::inet + g * 7, 32)::cidr` },
  { count: 30_000, network: `set_masklen('2001:db8:5::'::inet + g, 128)::cidr` },
  { count: 20_000, network: `set_masklen('20.0.0.0'::inet + g * 256, 24)::cidr` },
];
const SEEDED = SEED.reduce((sum, kind) => sum + kind.count, 0);
const BANNED_V4 = '11.0.0.7';
const BANNED_V6 = '2001:db8:5::9';
const IN_RANGE = '20.0.3.77';
const FREE = '198.18.0.1';
/** Seeded ids start here: far below the fixtures' snowflake ids. */
const FIRST_ID = 5_000_000_000;

async function seed(): Promise<void> {
  let offset = FIRST_ID;
  for (const kind of SEED) {
    await gateway.pool.query(
      `INSERT INTO ip_bans (id, network, display, reason)
       SELECT $2::bigint + g, n, n::text, 'seeded' FROM generate_series(1, $1::int) AS g, LATERAL (SELECT ${kind.network} AS n) AS v`,
      [kind.count, offset],
    );
    offset += kind.count;
  }
}

/** A ban written behind the replica's back: only a full reload finds it. */
async function insertUnannounced(network: string): Promise<void> {
  await gateway.pool.query(
    `INSERT INTO ip_bans (id, network, display, reason) VALUES ($1, $2::cidr, $2::text, 'marker')`,
    [FIRST_ID - 1, network],
  );
}

async function status(forwardedFor: string): Promise<number> {
  const response = await fetch(`${gateway.url}/v1/.well-known/service`, {
    headers: { 'X-Forwarded-For': forwardedFor },
  });
  await response.arrayBuffer();
  return response.status;
}

/** A message no replica can read: it makes every replica reload everything. */
async function forceReload(): Promise<void> {
  await gateway.redis.publish(ipBanChannel(gateway.config.REDIS_PREFIX), 'reload, please');
}

beforeAll(async () => {
  gateway = await startGateway(environment, { RATE_LIMITS_ENABLED: 'false', TRUSTED_PROXY_HOPS: '1' });
  admin = await createAdmin(gateway.pool, ['*']);
  await seed();
  await forceReload();
  // The seeded bans are loaded.
  await waitFor(async () => (await status(BANNED_V4)) === 403, 30_000, 50);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

describe(`a full reload of ${SEEDED.toLocaleString('en-US')} IP bans`, () => {
  it('never holds the event loop long, and bans apply during and after the swap', async () => {
    const marker = '198.51.100.77';
    await insertUnannounced(marker);
    const answers: Record<string, number[]> = {
      [BANNED_V4]: [],
      [BANNED_V6]: [],
      [IN_RANGE]: [],
      [FREE]: [],
      [marker]: [],
    };
    const watch = watchEventLoop();
    let longestBlockCpuMs: number;
    try {
      await forceReload();
      // Asks without pause until the new index is in: then the marker is banned.
      await waitFor(
        async () => {
          const addresses = Object.keys(answers);
          const statuses = await Promise.all(addresses.map(status));
          for (const [i, address] of addresses.entries()) answers[address]!.push(statuses[i]!);
          return answers[marker]!.at(-1) === 403;
        },
        30_000,
        0,
      );
    } finally {
      longestBlockCpuMs = watch.stop().longestBlockCpuMs;
    }

    expect(answers[marker]!.at(-1)).toBe(403);
    // The old index answered while the new one was built: the marker was not banned yet.
    expect(answers[marker]!.filter((answer) => answer === 200).length).toBeGreaterThan(3);
    for (const banned of [BANNED_V4, BANNED_V6, IN_RANGE]) expect(new Set(answers[banned])).toEqual(new Set([403]));
    expect(new Set(answers[FREE])).toEqual(new Set([200]));
    // The loader works in slices of about 8 ms; the margin is for a garbage collection landing in one.
    expect(longestBlockCpuMs).toBeLessThan(100);

    const check = await banCaller(gateway.url, admin.key, { 'X-Forwarded-For': FREE })('ip', 'check', { ip: IN_RANGE });
    expect(check.body).toMatchObject({ banned: true, matched: '20.0.3.0/24', reason: 'seeded', expires_at: null });
  }, 60_000);
});
