import { z } from 'zod';
import type { IpBanIndexRow } from '@switchboard/db';
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

/**
 * Shares equal reason strings between entries: bans are often added in bulk with one reason,
 * and a million copies of it would cost tens of megabytes.
 */
export function createInterner(maxDistinct = 10_000): (text: string | null) => string | null {
  const seen = new Map<string, string>();
  return (text) => {
    if (text === null) return null;
    const known = seen.get(text);
    if (known !== undefined) return known;
    // Mostly distinct reasons gain nothing from sharing: stop remembering them.
    if (seen.size < maxDistinct) seen.set(text, text);
    return text;
  };
}

/** An index entry from a stored row; null for a row whose network does not parse. */
export function entryFromRow(row: IpBanIndexRow, intern: (text: string | null) => string | null): IpBanEntry | null {
  const network = parseIpNetwork(row.network);
  if (!network) return null;
  return { network, expiresAtMs: row.expiresAtMs, reason: intern(row.reason), createdAtMs: row.createdAtMs };
}
