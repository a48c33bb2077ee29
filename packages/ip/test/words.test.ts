import { describe, expect, it } from 'vitest';
import { formatNetworkWords, parseIpNetwork, readInetBinary } from '../src/index.ts';

/** PostgreSQL's binary form of an inet/cidr value (as inet_send writes it). */
function inetBinary(family: 2 | 3, prefix: number, address: number[]): Uint8Array {
  return Uint8Array.from([family, prefix, 1, address.length, ...address]);
}

function readText(bytes: Uint8Array, offset = 0): string | null {
  const words = new Uint32Array(4);
  const network = readInetBinary(bytes, offset, words);
  return network && formatNetworkWords(words, 0, network.family === 4 ? 1 : 4, network.prefix);
}

describe('readInetBinary', () => {
  it('reads IPv4 and IPv6 networks, clearing host bits', () => {
    expect(readText(inetBinary(2, 32, [192, 0, 2, 1]))).toBe('192.0.2.1');
    expect(readText(inetBinary(2, 8, [10, 1, 2, 3]))).toBe('10.0.0.0/8');
    expect(readText(inetBinary(2, 0, [255, 255, 255, 255]))).toBe('0.0.0.0/0');
    expect(readText(inetBinary(3, 128, [0x20, 0x01, 0x0d, 0xb8, ...new Array<number>(11).fill(0), 1]))).toBe(
      '2001:db8::1',
    );
    expect(readText(inetBinary(3, 33, [0x20, 0x01, 0x0d, 0xb8, 0xff, ...new Array<number>(11).fill(0xff)]))).toBe(
      '2001:db8:8000::/33',
    );
  });

  it('reads IPv4-mapped IPv6 as IPv4, as the text parser does', () => {
    const mapped = [...new Array<number>(10).fill(0), 0xff, 0xff, 1, 2, 3, 4];
    expect(readText(inetBinary(3, 128, mapped))).toBe(parseIpNetwork('::ffff:1.2.3.4')!.canonical);
    expect(readText(inetBinary(3, 104, mapped))).toBe('1.0.0.0/8');
    expect(readText(inetBinary(3, 95, mapped))).toBe('::fffe:0:0/95');
  });

  it('reads at an offset and says how many bytes the value took', () => {
    const bytes = Uint8Array.from([
      9,
      9,
      ...inetBinary(2, 24, [198, 51, 100, 0]),
      ...inetBinary(3, 64, new Array<number>(16).fill(0)),
    ]);
    const words = new Uint32Array(4);
    expect(readInetBinary(bytes, 2, words)).toEqual({ family: 4, prefix: 24, byteLength: 8 });
    expect(readInetBinary(bytes, 10, words)).toEqual({ family: 6, prefix: 64, byteLength: 20 });
    expect(readText(bytes, 10)).toBe('::/64');
  });

  it('refuses malformed values', () => {
    expect(readText(inetBinary(2, 33, [1, 2, 3, 4]))).toBeNull();
    expect(readText(inetBinary(3, 129, new Array<number>(16).fill(0)))).toBeNull();
    expect(readText(inetBinary(2, 32, [1, 2, 3]))).toBeNull();
    expect(readText(inetBinary(3, 32, [1, 2, 3, 4]))).toBeNull();
    expect(readText(Uint8Array.from([4, 32, 1, 4, 1, 2, 3, 4]))).toBeNull();
    expect(readText(inetBinary(2, 32, [1, 2, 3, 4]).subarray(0, 6))).toBeNull();
    expect(readText(Uint8Array.from([2, 32]))).toBeNull();
  });
});
