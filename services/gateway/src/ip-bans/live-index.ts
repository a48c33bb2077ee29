import { formatAddress, IpIndex, type IpNetwork } from '@switchboard/ip';
import type { IpBanDelta, IpBanEntry } from './entry.ts';

/** The range one bit wider than `network` (its parent in the CIDR tree); null above /0. */
function supernet(network: IpNetwork): IpNetwork | null {
  if (network.prefix === 0) return null;
  const bits = network.family === 4 ? 32 : 128;
  const prefix = network.prefix - 1;
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  const start = network.start & ~hostMask;
  const canonical = `${formatAddress(network.family, start)}/${prefix}`;
  return { family: network.family, start, end: start | hostMask, prefix, canonical };
}

/** The narrower of two entries covering the same query (a single address is the narrowest). */
function narrower(a: IpBanEntry | null, b: IpBanEntry | null): IpBanEntry | null {
  if (!a || !b) return a ?? b;
  return b.network.prefix > a.network.prefix ? b : a;
}

/**
 * The IP bans one replica enforces: a large immutable base (built from the database) plus a
 * small overlay of changes received since (added entries in their own small index, and the
 * networks whose base entry no longer applies because they were removed or re-added).
 * Lookups consult both, so a change applies the moment it arrives; a reload folds the
 * overlay into a new base.
 */
export class LiveIpBanIndex {
  private base: IpIndex<IpBanEntry>;
  private overlay: IpIndex<IpBanEntry> = new IpIndex([]);
  private readonly added = new Map<string, IpBanEntry>();
  /** Canonical networks whose base entry is shadowed (removed, or replaced by `added`). */
  private readonly superseded = new Set<string>();

  constructor(base: IpIndex<IpBanEntry> = new IpIndex([])) {
    this.base = base;
  }

  /** Entries changed since the base was built: when large, the base should be rebuilt. */
  get overlaySize(): number {
    return this.superseded.size;
  }

  get baseSize(): number {
    return this.base.size;
  }

  /** The most specific live ban covering the whole of `query` (address or range), or null. */
  match(query: IpNetwork, nowMs = Date.now()): IpBanEntry | null {
    const fromOverlay = this.added.size > 0 ? this.overlay.match(query, nowMs) : null;
    return narrower(fromOverlay, this.matchBase(query, nowMs));
  }

  private matchBase(query: IpNetwork, nowMs: number): IpBanEntry | null {
    let found = this.base.match(query, nowMs);
    // A shadowed entry hides the wider ones around it: ask again for the range one bit wider,
    // whose covering entries are exactly the wider ones (CIDR ranges nest).
    while (found && this.superseded.has(found.network.canonical)) {
      const wider = supernet(found.network);
      found = wider ? this.base.match(wider, nowMs) : null;
    }
    return found;
  }

  /** Applies changes in order (idempotent: adds carry the whole state of the ban). */
  apply(...deltas: readonly IpBanDelta[]): void {
    for (const delta of deltas) {
      for (const canonical of delta.removes) {
        this.added.delete(canonical);
        this.superseded.add(canonical);
      }
      for (const entry of delta.adds) {
        this.added.set(entry.network.canonical, entry);
        this.superseded.add(entry.network.canonical);
      }
    }
    // Small by construction (a reload folds it into the base past a threshold).
    this.overlay = new IpIndex(this.added.values());
  }

  /** Swaps in a freshly built base, then re-applies the changes that arrived while it was built. */
  replaceBase(base: IpIndex<IpBanEntry>, changesSince: readonly IpBanDelta[] = []): void {
    this.base = base;
    this.added.clear();
    this.superseded.clear();
    this.apply(...changesSince);
  }
}
