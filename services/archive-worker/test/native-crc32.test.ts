import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useNativeCrc32InYazl, yazlBufferCrc32 } from '../src/native-crc32.ts';

describe('yazl on node:zlib crc32', () => {
  // buffer-crc32's `signed` still runs its own JavaScript: the reference.
  const bufferCrc32 = yazlBufferCrc32() as ReturnType<typeof yazlBufferCrc32> & {
    signed(input: Buffer, previous?: number): number;
  };
  useNativeCrc32InYazl();

  it('gives the CRC-32 check value and buffer-crc32 numbers, chunk after chunk', () => {
    expect(bufferCrc32.unsigned(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(bufferCrc32.unsigned('123456789')).toBe(0xcbf43926);
    let native = 0;
    let reference = 0;
    for (const size of [0, 1, 7, 64, 4096, 65_536, 100_003]) {
      const chunk = randomBytes(size);
      native = bufferCrc32.unsigned(chunk, native);
      reference = bufferCrc32.signed(chunk, reference) >>> 0;
      expect(native).toBe(reference);
    }
  });
});
