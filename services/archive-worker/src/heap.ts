import { setFlagsFromString } from 'node:v8';

/**
 * An export allocates far more in buffers outside V8's heap (COPY pages, the JSON slices handed
 * to deflate, socket reads) than it keeps in the heap. By default V8 starts a full mark-compact
 * whenever such external memory grows by a fixed step past what the last collection left,
 * which on a large guild meant one every few pages and a large share of the worker's CPU.
 * Counted in the heap's global limit instead, buffers are collected as the heap's own growth
 * would be: a few collections an export, at a higher peak RSS, which the mmap threshold of
 * SERVICE_ENV keeps under the worker's bound (packages/bench/README.md#archive-export). Read at
 * each collection, so setting it at start is enough.
 */
export function collectBuffersWithTheHeap(): void {
  setFlagsFromString('--external-memory-accounted-in-global-limit');
}
