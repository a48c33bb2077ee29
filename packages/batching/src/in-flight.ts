/**
 * The things in progress right now (responses being answered, jobs being run), for a shutdown
 * that has to reach each of them: add when one starts, delete when it ends, iterate rarely.
 *
 * Not a `Set` or `Map`, on purpose. A long-lived V8 hash table that gains and loses an entry per
 * request keeps rehashing, and its superseded backing stores stay linked to the tables that
 * followed them until the next full GC. Every scavenge then finds each request's whole object
 * graph (response, body, parsed JSON) still reachable and promotes it to the old generation.
 * Those promotions made the scavenges long and the mark-compacts frequent: the accept latency's
 * tail (packages/bench/README.md#memory-and-garbage-collection).
 *
 * An array with swap-remove holds no superseded structure: a deleted item's slot is overwritten
 * by the last item or popped. Each item remembers its own position under a symbol owned by
 * this collection, so one object can be in several collections.
 */
export class InFlight<T extends object> implements Iterable<T> {
  readonly #items: T[] = [];
  readonly #slot = Symbol('in-flight slot');

  get size(): number {
    return this.#items.length;
  }

  add(item: T): void {
    if (this.has(item)) return;
    this.#position(item, this.#items.push(item) - 1);
  }

  has(item: T): boolean {
    const index = this.#indexOf(item);
    return index !== undefined && this.#items[index] === item;
  }

  delete(item: T): boolean {
    if (!this.has(item)) return false;
    const index = this.#indexOf(item)!;
    const last = this.#items.pop()!;
    if (last !== item) {
      this.#items[index] = last;
      this.#position(last, index);
    }
    this.#position(item, undefined);
    return true;
  }

  /** A copy: items may end (and be deleted) while the caller walks them. */
  values(): T[] {
    return [...this.#items];
  }

  [Symbol.iterator](): Iterator<T> {
    return this.values()[Symbol.iterator]();
  }

  #indexOf(item: T): number | undefined {
    return (item as Record<symbol, number | undefined>)[this.#slot];
  }

  #position(item: T, index: number | undefined): void {
    (item as Record<symbol, number | undefined>)[this.#slot] = index;
  }
}
