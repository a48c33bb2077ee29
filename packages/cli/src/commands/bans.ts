import { z } from '@switchboard/config';
import { createPool, poolModeOptions, deleteIpBans } from '@switchboard/db';
import { parseIpNetwork } from '@switchboard/ip';
import { parseOptions } from '../args.ts';
import { defineCommand } from '../command.ts';

const networkSchema = z.string().transform((text, ctx) => {
  const network = parseIpNetwork(text.trim());
  if (network === null) {
    ctx.addIssue({ code: 'custom', message: 'an IP address or CIDR range, e.g. 203.0.113.7 or 0.0.0.0/0' });
    return z.NEVER;
  }
  return network;
});

/**
 * `bans ip remove`: lifts one IP ban straight in PostgreSQL, for an operator whom a ban locked
 * out of the API (the gateway refuses banned clients). The ban table's change counter moves
 * with the delete, so every gateway replica reloads its bans within IP_BANS_FULL_RELOAD_MS.
 * No audit entry: the CLI acts as no admin (as `jobs retry`).
 */
export const bansIpRemoveCommand = defineCommand({
  name: 'bans ip remove',
  usage:
    'bans ip remove <ip or cidr>: lifts the ban on exactly that address or range in the database (gateways follow within IP_BANS_FULL_RELOAD_MS); prints {"removed": [...], "still_covering": [...]}',
  parse: (args) => parseOptions(args, {}, z.object({ network: networkSchema }), ['network']),
  async run(options, config) {
    const pool = createPool({
      connectionString: config.DATABASE_URL,
      max: 1,
      applicationName: 'switchboard-cli',
      ...poolModeOptions(config),
    });
    try {
      const removed = await deleteIpBans(pool, [options.network.canonical]);
      // Other bans that still cover it: what else keeps this address out.
      const { rows } = await pool.query<{ network: string }>(
        'SELECT network::text AS network FROM ip_bans WHERE network >>= $1::cidr AND (expires_at IS NULL OR expires_at > now()) ORDER BY network',
        [options.network.canonical],
      );
      return { removed, still_covering: rows.map((row) => row.network) };
    } finally {
      await pool.end();
    }
  },
});
