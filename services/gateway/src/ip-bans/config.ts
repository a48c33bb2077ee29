import { promises as dns } from 'node:dns';
import { env, z } from '@switchboard/config';

/** `host[:port]` entries as node:dns accepts them (IPv6 with a port in brackets). */
function validResolvers(servers: string[]): boolean {
  try {
    new dns.Resolver().setServers(servers);
    return true;
  } catch {
    return false;
  }
}

/** The gateway's ban variables (spread into its config schema). */
export const banConfigShape = {
  /**
   * Safety net: every replica reads the ip_bans change counter this often and reloads all IP
   * bans when it moved since its last load, whatever pub/sub said (one tiny query otherwise).
   */
  IP_BANS_FULL_RELOAD_MS: env.int(1_000, 86_400_000).default(30_000),
  /** Changed entries kept beside the loaded index before it is rebuilt with them. */
  IP_BANS_OVERLAY_LIMIT: env.int(1, 1_000_000).default(10_000),
  /** How long a request waits for the first load of the IP bans before a 503. */
  IP_BANS_LOAD_WAIT_MS: env.int(0, 600_000).default(5_000),
  /** Resolvers for reverse DNS of banned addresses, comma-separated `host[:port]`; default: the system's. */
  DNS_SERVERS: z
    .string()
    .transform((list) =>
      list
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    )
    .refine(validResolvers, 'expected comma-separated IP[:port] entries, e.g. 127.0.0.1:53,[::1]:53')
    .default([]),
  /**
   * The widest IP ban range accepted without `"force": true`: a prefix shorter than this (a
   * wider range) is refused, so one typo (`0.0.0.0/0`) cannot lock every client out.
   */
  IP_BAN_MIN_PREFIX_V4: env.int(0, 32).default(8),
  IP_BAN_MIN_PREFIX_V6: env.int(0, 128).default(32),
  /** One try per address, bounded by this. */
  REVERSE_DNS_TIMEOUT_MS: env.int(10, 30_000).default(500),
};
