import { IpIndex, type IpNetwork } from '@switchboard/ip';
import type { IpBanDelta, IpBanEntry } from './entry.ts';

/**
 * A base set of bans: the loaded IpBanTable, or (small sets, tests) an IpIndex of entries.
 * Entries whose canonical network is in `hidden` are passed over, the wider ones around them
 * still count.
 */
export interface IpBanBase {
  readonly size: number;
  match(query: IpNetwork, nowMs: number, hidden?: ReadonlySet<string>): IpBanEntry | null;
  covers(query: IpNetwork, nowMs: number, hidden?: ReadonlySet<string>): boolean;
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
 * overlay into a new base, swapped in at once while the old one answered until then.
 */
export class LiveIpBanIndex {
  private base: IpBanBase;
  private overlay: IpIndex<IpBanEntry> = new IpIndex([]);
  private readonly added = new Map<string, IpBanEntry>();
  /** Canonical networks whose base entry is shadowed (removed, or replaced by `added`). */
  private readonly superseded = new Set<string>();

  constructor(base: IpBanBase = new IpIndex<IpBanEntry>([])) {
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
    return narrower(fromOverlay, this.base.match(query, nowMs, this.superseded));
  }

  /** Whether a live ban covers `query`: what enforcement asks, without building an answer. */
  covers(query: IpNetwork, nowMs = Date.now()): boolean {
    if (this.added.size > 0 && this.overlay.covers(query, nowMs)) return true;
    return this.base.covers(query, nowMs, this.superseded);
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
  replaceBase(base: IpBanBase, changesSince: readonly IpBanDelta[] = []): void {
    this.base = base;
    this.added.clear();
    this.superseded.clear();
    this.apply(...changesSince);
  }
}
