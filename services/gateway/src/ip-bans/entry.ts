import { z } from 'zod';
import { parseIpNetwork, type IndexedEntry, type IpNetwork } from '@switchboard/ip';

/** One IP ban as the enforcement index holds it: enough to answer a check without the database. */
export interface IpBanEntry extends IndexedEntry {
  network: IpNetwork;
  /** Epoch milliseconds, or null: never expires. */
  expiresAtMs: number | null;
  reason: string | null;
  createdAtMs: number;
}

/**
 * A change to the IP ban set, as published to every replica: adds carry the ban's whole
 * state (so applying one twice, or replaying it after a reload, is harmless), removes the
 * canonical network.
 */
export interface IpBanDelta {
  adds: IpBanEntry[];
  removes: string[];
}

const wireAddSchema = z.object({
  network: z.string().min(1).max(64),
  reason: z.string().max(512).nullable(),
  expires_at_ms: z.number().nullable(),
  created_at_ms: z.number(),
});

export const wireDeltaSchema = z.object({
  adds: z.array(wireAddSchema),
  removes: z.array(z.string().min(1).max(64)),
});

export type WireDelta = z.infer<typeof wireDeltaSchema>;

export function deltaToWire(delta: IpBanDelta): WireDelta {
  return {
    adds: delta.adds.map((entry) => ({
      network: entry.network.canonical,
      reason: entry.reason,
      expires_at_ms: entry.expiresAtMs,
      created_at_ms: entry.createdAtMs,
    })),
    removes: delta.removes,
  };
}

/** Null when a network does not parse (a peer on another version): the message is then dropped. */
export function deltaFromWire(wire: WireDelta): IpBanDelta | null {
  const adds: IpBanEntry[] = [];
  for (const add of wire.adds) {
    const network = parseIpNetwork(add.network);
    if (!network) return null;
    adds.push({ network, reason: add.reason, expiresAtMs: add.expires_at_ms, createdAtMs: add.created_at_ms });
  }
  return { adds, removes: wire.removes };
}
