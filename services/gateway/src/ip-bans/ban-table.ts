import { type CompactIpIndex, CompactIpIndexBuilder, type IpFamily, type IpNetwork, resized } from '@switchboard/ip';
import type { IpBanEntry } from './entry.ts';

/** What the check route reads beside the index: per ban (by tag) its creation time and reason. */
interface BanColumns {
  createdAtMs: Float64Array;
  /** Index into `reasons`, or -1 for no reason. */
  reasonIds: Int32Array;
  reasons: readonly string[];
}

/**
 * The whole ban set as one replica loaded it, in typed arrays: the CompactIpIndex (addresses,
 * expiry) and two columns of metadata. Enforcement only asks `covers`; the check route's
 * `match` builds an entry object for the one ban it answers with.
 */
export class IpBanTable {
  private readonly index: CompactIpIndex;
  private readonly columns: BanColumns;

  constructor(index: CompactIpIndex, columns: BanColumns) {
    this.index = index;
    this.columns = columns;
  }

  get size(): number {
    return this.index.size;
  }

  /** Bytes held in typed arrays (the reason texts aside). */
  get byteLength(): number {
    return this.index.byteLength + this.columns.createdAtMs.byteLength + this.columns.reasonIds.byteLength;
  }

  match(query: IpNetwork, nowMs = Date.now(), hidden?: ReadonlySet<string>): IpBanEntry | null {
    const slot = this.index.find(query, nowMs, hidden);
    if (slot < 0) return null;
    const tag = this.index.tag(slot);
    const reasonId = this.columns.reasonIds[tag]!;
    return {
      network: this.index.network(slot),
      expiresAtMs: this.index.expiresAtMs(slot),
      reason: reasonId < 0 ? null : this.columns.reasons[reasonId]!,
      createdAtMs: this.columns.createdAtMs[tag]!,
    };
  }

  covers(query: IpNetwork, nowMs = Date.now(), hidden?: ReadonlySet<string>): boolean {
    return this.index.find(query, nowMs, hidden) >= 0;
  }
}

/**
 * Reasons shared between bans: bans are often added in bulk with one reason, and a million
 * copies of it would cost tens of megabytes. Past `maxShared` distinct texts (mostly distinct
 * reasons gain nothing from sharing) new ones are kept without being remembered.
 */
class ReasonTable {
  readonly texts: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly maxShared: number;

  constructor(maxShared = 10_000) {
    this.maxShared = maxShared;
  }

  idOf(text: string | null): number {
    if (text === null) return -1;
    const known = this.ids.get(text);
    if (known !== undefined) return known;
    const id = this.texts.push(text) - 1;
    if (this.ids.size < this.maxShared) this.ids.set(text, id);
    return id;
  }
}

/** Collects loaded bans (any order; network order is cheapest), then builds the table in time slices. */
export class IpBanTableBuilder {
  private readonly index = new CompactIpIndexBuilder();
  private readonly reasons = new ReasonTable();
  private createdAtMs = new Float64Array(1_024);
  private reasonIds = new Int32Array(1_024);
  private count = 0;

  /** The id `add` takes for a reason text (null: none). */
  reasonId(text: string | null): number {
    return this.reasons.idOf(text);
  }

  /** A ban by its start address words (`words[0…]`); `expiresAtMs` Infinity or null: never. */
  add(
    network: { family: IpFamily; prefix: number },
    words: Uint32Array,
    expiresAtMs: number | null,
    createdAtMs: number,
    reasonId: number,
  ): void {
    if (this.count === this.reasonIds.length) this.grow();
    const tag = this.count++;
    this.createdAtMs[tag] = createdAtMs;
    this.reasonIds[tag] = reasonId;
    this.index.addWords(network.family, words, network.prefix, expiresAtMs, tag);
  }

  private grow(): void {
    this.createdAtMs = resized(this.createdAtMs, this.count * 2);
    this.reasonIds = resized(this.reasonIds, this.count * 2);
  }

  /** Builds in slices of about `sliceMs`, leaving the event loop free in between (once: the table takes the columns). */
  async build(sliceMs?: number): Promise<IpBanTable> {
    const index = await this.index.buildInSlices(sliceMs);
    const columns = {
      createdAtMs: resized(this.createdAtMs, this.count),
      reasonIds: resized(this.reasonIds, this.count),
      reasons: this.reasons.texts,
    };
    return new IpBanTable(index, columns);
  }
}
