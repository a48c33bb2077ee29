import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

const BLOCK_BYTES = 64 * 1024;

/** mulberry32: a tiny seeded PRNG, so every run produces the same bytes. */
function seededBlock(seed: number): Buffer {
  const block = Buffer.alloc(BLOCK_BYTES);
  let state = seed >>> 0;
  for (let offset = 0; offset < BLOCK_BYTES; offset += 4) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    block.writeUInt32LE((t ^ (t >>> 14)) >>> 0, offset);
  }
  return block;
}

/**
 * `totalBytes` of deterministic data, generated on demand one 64 KiB block at a time (never
 * held whole). Every block carries its index, so reordered or repeated parts change the hash.
 * `onGenerated` sees the running total. `sha256()` is the digest of what was read, valid once the stream has ended.
 */
export function patternStream(
  totalBytes: number,
  { seed = 42, onGenerated }: { seed?: number; onGenerated?: (bytesSoFar: number) => void } = {},
): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  const base = seededBlock(seed);
  function* blocks() {
    for (let offset = 0, index = 0; offset < totalBytes; offset += BLOCK_BYTES, index++) {
      const block = Buffer.from(base.subarray(0, Math.min(BLOCK_BYTES, totalBytes - offset)));
      if (block.length >= 4) block.writeUInt32BE(index, 0);
      hash.update(block);
      onGenerated?.(offset + block.length);
      yield block;
    }
  }
  return { stream: Readable.from(blocks(), { objectMode: false }), sha256: () => hash.digest('hex') };
}

/** A stream that yields `bytesBeforeFailure` bytes of data and then fails with `error`. */
export function failingStream(bytesBeforeFailure: number, error: Error): Readable {
  async function* blocks() {
    for (let sent = 0; sent < bytesBeforeFailure; sent += BLOCK_BYTES) {
      yield Buffer.alloc(Math.min(BLOCK_BYTES, bytesBeforeFailure - sent), 7);
    }
    throw error;
  }
  return Readable.from(blocks(), { objectMode: false });
}

/** Byte count and sha256 of a fetch response body, read as a stream. */
export async function digestResponse(response: Response): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of response.body ?? []) {
    bytes += chunk.byteLength;
    hash.update(chunk);
  }
  return { bytes, sha256: hash.digest('hex') };
}
