import type { MixLane } from '../../paced-mix.ts';
import { onGateways } from './mix.ts';
import type { OperationBodies } from './seed-operations.ts';
import type { SeededGuild } from './seed.ts';

/** How often each heavy operation starts, whatever the total rate: a few at once, all run long. */
export const OPERATION_INTERVAL_SECONDS = { archive: 15, purge: 15, 'bulk add': 10 } as const;
/**
 * Where in its interval each kind starts (PacedOptions.phase): staggered, so that a short load's
 * one archive, purge and bulk add do not all land together on its first moment.
 */
const OPERATION_PHASE = { archive: 0.25, purge: 0.5, 'bulk add': 0.75 } as const;
/** Operations of a kind in flight at most (requests due meanwhile wait for a connection). */
const OPERATION_CONNECTIONS = 2;

type OperationName = keyof typeof OPERATION_INTERVAL_SECONDS;

/** Requests of each operation in a load of `seconds`: at least one, so every step has each. */
export function operationsIn(name: OperationName, seconds: number): number {
  return Math.max(1, Math.round(seconds / OPERATION_INTERVAL_SECONDS[name]));
}

/**
 * Hands out the seeded bodies of one operation in order across the whole run, so no step
 * repeats another's (a second purge of a guild deletes nothing); wraps if the run outlasts them,
 * and counts how often it did.
 */
export class BodySupply {
  private next = 0;
  wrapped = 0;
  private readonly bodies: readonly string[];

  constructor(bodies: readonly string[]) {
    if (bodies.length === 0) throw new Error('no bodies to hand out');
    this.bodies = bodies;
  }

  take(count: number): string[] {
    return Array.from({ length: count }, () => {
      if (this.next === this.bodies.length) {
        this.next = 0;
        this.wrapped += 1;
      }
      return this.bodies[this.next++]!;
    });
  }
}

export interface OperationSupplies {
  bulkAdds: BodySupply;
  purges: BodySupply;
}

export function operationSupplies(bodies: OperationBodies): OperationSupplies {
  return { bulkAdds: new BodySupply(bodies.bulkAdds), purges: new BodySupply(bodies.purges) };
}

/**
 * The heavy operations of one load of `seconds`: guild archives of the seeded guild (the
 * trigger; the export runs in the archive worker), asset purges of a guild each (the request
 * waits for the worker up to ADMIN_JOB_WAIT_MS) and bulk adds of 1000 fresh users (likewise).
 */
export function operationLanes(
  guild: SeededGuild,
  supplies: OperationSupplies,
  gatewayUrls: readonly string[],
  seconds: number,
): MixLane[] {
  const headers = { authorization: `Admin ${guild.adminKey}`, 'content-type': 'application/json' };
  const lane = (name: OperationName, path: string, bodies: string[]): MixLane => ({
    name,
    group: 'operations',
    target: onGateways({ path, method: 'POST', headers, bodies }, gatewayUrls),
    requestsPerSecond: bodies.length / seconds,
    connections: Math.max(OPERATION_CONNECTIONS, gatewayUrls.length),
    phase: OPERATION_PHASE[name],
  });
  const archive = JSON.stringify({ guild_id: guild.guildId });
  return [
    lane('archive', '/v1/admin/archives/guild', Array(operationsIn('archive', seconds)).fill(archive)),
    lane('purge', '/v1/admin/assets/purge', supplies.purges.take(operationsIn('purge', seconds))),
    lane('bulk add', '/v1/admin/bulk/add-guild-members', supplies.bulkAdds.take(operationsIn('bulk add', seconds))),
  ];
}
