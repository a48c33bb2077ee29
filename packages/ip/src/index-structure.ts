import { CompactIpIndexBuilder } from './builder.ts';
import type { CompactIpIndex } from './compact-index.ts';
import type { IpNetwork } from './parse.ts';

export interface IndexedEntry {
  network: IpNetwork;
  /** Milliseconds since the epoch, or null for a ban that never expires. */
  expiresAtMs: number | null;
}

/**
 * An immutable lookup structure over entry objects of both families: a CompactIpIndex whose
 * tags are positions in the entry list. For sets small enough to hold as objects; large ones
 * keep their fields in columns beside a CompactIpIndex instead.
 */
export class IpIndex<T extends IndexedEntry> {
  private readonly entries: T[];
  private readonly index: CompactIpIndex;

  constructor(entries: Iterable<T>) {
    this.entries = [...entries];
    const builder = new CompactIpIndexBuilder();
    for (const [i, entry] of this.entries.entries()) builder.add(entry.network, entry.expiresAtMs, i);
    this.index = builder.build();
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * The most specific live entry that covers the whole of `query` (an address or a range):
   * an exact single-address entry first, then the narrowest covering range. Entries whose
   * canonical network is in `hidden` are passed over (the wider ones around them still count).
   */
  match(query: IpNetwork, nowMs = Date.now(), hidden?: ReadonlySet<string>): T | null {
    const slot = this.index.find(query, nowMs, hidden);
    return slot < 0 ? null : this.entries[this.index.tag(slot)]!;
  }

  /** Whether any live entry (not in `hidden`) covers the whole of `query`. */
  covers(query: IpNetwork, nowMs = Date.now(), hidden?: ReadonlySet<string>): boolean {
    return this.index.find(query, nowMs, hidden) >= 0;
  }
}
