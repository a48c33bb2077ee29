import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';

/** The part of buffer-crc32 1.x that yazl calls: a running CRC-32 over one chunk more. */
interface BufferCrc32 {
  unsigned(input: Buffer | string, previous?: number | Buffer): number;
}

/** yazl's own copy of buffer-crc32, the module object yazl calls through. */
export function yazlBufferCrc32(): BufferCrc32 {
  const yazlRequire = createRequire(createRequire(import.meta.url).resolve('yazl'));
  return yazlRequire('buffer-crc32') as BufferCrc32;
}

/**
 * yazl checksums every byte of an archive with buffer-crc32's byte-at-a-time JavaScript, a
 * large share of the worker's CPU (packages/bench/README.md#archive-export). node:zlib's crc32
 * is native and gives the same numbers for far less, so yazl's `crc32.unsigned` is pointed at
 * it, once, before any archive is written (yazl looks the function up on each chunk).
 * test/native-crc32.test.ts holds the two equal.
 */
export function useNativeCrc32InYazl(): void {
  yazlBufferCrc32().unsigned = (input, previous) =>
    crc32(
      typeof input === 'string' ? Buffer.from(input) : input,
      Buffer.isBuffer(previous) ? previous.readUInt32BE(0) : (previous ?? 0) >>> 0,
    );
}
