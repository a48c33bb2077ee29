import type { Pool } from '@switchboard/db';

export interface BanSeed {
  ipv4Singles: number;
  ipv6Singles: number;
  ipv4Ranges: number;
}

/** The first banned IPv4 address, and an address no seeded ban covers (the load generator's own is 127.0.0.1). */
export const BANNED_ADDRESS = '11.0.0.37';
export const FREE_ADDRESS = '198.18.0.1';

const CHUNK = 100_000;

/**
 * Kinds of rows, all set-based (generate_series, one statement per chunk of 100k): IPv4
 * addresses 37 apart from 11.0.0.0, IPv6 addresses from 2001:db8::, and /24 ranges 768 apart
 * from 20.0.0.0 (aligned, so no host bits). None covers loopback or FREE_ADDRESS.
 */
const KINDS = [
  { count: (seed: BanSeed) => seed.ipv4Singles, network: `set_masklen('11.0.0.0'::inet + g * 37, 32)::cidr` },
  { count: (seed: BanSeed) => seed.ipv6Singles, network: `set_masklen('2001:db8::'::inet + g, 128)::cidr` },
  { count: (seed: BanSeed) => seed.ipv4Ranges, network: `set_masklen('20.0.0.0'::inet + g * 768, 24)::cidr` },
];

export async function seedIpBans(pool: Pool, seed: BanSeed, log: (message: string) => void): Promise<number> {
  let seeded = 0;
  for (const kind of KINDS) {
    const total = kind.count(seed);
    // Row g of this kind gets id `seeded + g`: ids never repeat across kinds.
    for (let from = 1; from <= total; from += CHUNK) {
      await pool.query(
        `INSERT INTO ip_bans (id, network, display, reason)
         SELECT $3::bigint + g, n, n::text, 'bench seed'
         FROM generate_series($1::bigint, $2::bigint) AS g, LATERAL (SELECT ${kind.network} AS n) AS v`,
        [from, Math.min(total, from + CHUNK - 1), seeded],
      );
    }
    seeded += total;
    log(`seeded ${seeded.toLocaleString('en-US')} IP bans`);
  }
  await pool.query('ANALYZE ip_bans');
  return seeded;
}
