import type { IpFamily, IpNetwork } from './parse.ts';

/**
 * Addresses as unsigned 32-bit words, most significant first: one word for IPv4, four for
 * IPv6. Typed arrays of words compare with plain number arithmetic, so the index needs no
 * bigint per entry and no object per entry.
 */
export type AddressWidth = 1 | 4;

export function widthOf(family: IpFamily): AddressWidth {
  return family === 4 ? 1 : 4;
}

const WORD = 0xffffffffn;

/** Writes the words of a bigint address at `out[offset…]`. */
export function writeBigintWords(value: bigint, width: AddressWidth, out: Uint32Array, offset = 0): void {
  if (width === 1) {
    out[offset] = Number(value);
    return;
  }
  out[offset] = Number(value >> 96n);
  out[offset + 1] = Number((value >> 64n) & WORD);
  out[offset + 2] = Number((value >> 32n) & WORD);
  out[offset + 3] = Number(value & WORD);
}

export function bigintFromWords(words: Uint32Array, offset: number, width: AddressWidth): bigint {
  if (width === 1) return BigInt(words[offset]!);
  let value = 0n;
  for (let k = 0; k < 4; k++) value = (value << 32n) | BigInt(words[offset + k]!);
  return value;
}

/** The mask of the bits of word `k` that lie past `prefix` (host bits), as an unsigned number. */
export function hostBitsOfWord(k: number, prefix: number): number {
  const networkBits = Math.min(32, Math.max(0, prefix - 32 * k));
  // `>>>` by 32 is `>>>` by 0 in JavaScript: the all-network and all-host words are spelled out.
  if (networkBits === 32) return 0;
  if (networkBits === 0) return 0xffffffff;
  return 0xffffffff >>> networkBits;
}

/** Clears the host bits of `words[offset…]` in place (start) and writes the last address to `end[endOffset…]`. */
export function writeBounds(
  words: Uint32Array,
  offset: number,
  width: AddressWidth,
  prefix: number,
  end: Uint32Array,
  endOffset: number,
): void {
  for (let k = 0; k < width; k++) {
    const host = hostBitsOfWord(k, prefix);
    const start = (words[offset + k]! & ~host) >>> 0;
    words[offset + k] = start;
    end[endOffset + k] = (start | host) >>> 0;
  }
}

/** -1, 0 or 1: the address at `a[ai…]` against the one at `b[bi…]`. */
export function compareWords(a: Uint32Array, ai: number, b: Uint32Array, bi: number, width: AddressWidth): number {
  for (let k = 0; k < width; k++) {
    const x = a[ai + k]!;
    const y = b[bi + k]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function formatIpv4Word(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 0xff}.${(value >>> 8) & 0xff}.${value & 0xff}`;
}

/** RFC 5952 from eight 16-bit groups: lower case, the longest run (≥ 2) of zero groups as `::`. */
export function formatIpv6Groups(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Canonical text of the address at `words[offset…]` (no prefix). */
export function formatWords(words: Uint32Array, offset: number, width: AddressWidth): string {
  if (width === 1) return formatIpv4Word(words[offset]!);
  const groups: number[] = [];
  for (let k = 0; k < 4; k++) groups.push(words[offset + k]! >>> 16, words[offset + k]! & 0xffff);
  return formatIpv6Groups(groups);
}

/** Canonical text of a network: the address, with `/prefix` only for a range. */
export function formatNetworkWords(words: Uint32Array, offset: number, width: AddressWidth, prefix: number): string {
  const text = formatWords(words, offset, width);
  return prefix === width * 32 ? text : `${text}/${prefix}`;
}

/** The bigint form (with canonical text) of the network whose start words are at `words[offset…]`. */
export function networkFromWords(words: Uint32Array, offset: number, width: AddressWidth, prefix: number): IpNetwork {
  const start = bigintFromWords(words, offset, width);
  const bits = width * 32;
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  return {
    family: width === 1 ? 4 : 6,
    start,
    end: start | hostMask,
    prefix,
    canonical: formatNetworkWords(words, offset, width, prefix),
  };
}

/** A network read from storage: family and prefix (its address words are written beside). */
export interface StoredNetwork {
  family: IpFamily;
  prefix: number;
  /** Bytes the value took in its encoding. */
  byteLength: number;
}

/** PostgreSQL's family bytes in the binary form of inet and cidr (PGSQL_AF_INET, PGSQL_AF_INET6). */
const PG_AF_INET = 2;
const PG_AF_INET6 = 3;

/**
 * Reads one `inet`/`cidr` value in PostgreSQL's binary form at `bytes[offset…]` (family, prefix
 * length, is-cidr flag, address length, address bytes) and writes its address words to `out`,
 * host bits cleared. IPv4-mapped IPv6 (`::ffff:a.b.c.d/≥96`) is the IPv4 network, as the text
 * parser has it. Null for anything malformed.
 */
export function readInetBinary(bytes: Uint8Array, offset: number, out: Uint32Array): StoredNetwork | null {
  if (offset + 4 > bytes.length) return null;
  const family = bytes[offset]!;
  const prefix = bytes[offset + 1]!;
  const length = bytes[offset + 3]!;
  const width: AddressWidth | null =
    family === PG_AF_INET && length === 4 ? 1 : family === PG_AF_INET6 && length === 16 ? 4 : null;
  if (width === null || prefix > width * 32 || offset + 4 + length > bytes.length) return null;
  for (let k = 0, at = offset + 4; k < width; k++, at += 4) {
    const word = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
    out[k] = (word & ~hostBitsOfWord(k, prefix)) >>> 0;
  }
  const byteLength = 4 + length;
  if (width === 4 && prefix >= 96 && out[0] === 0 && out[1] === 0 && out[2] === 0xffff) {
    out[0] = out[3]!;
    return { family: 4, prefix: prefix - 96, byteLength };
  }
  return { family: width === 1 ? 4 : 6, prefix, byteLength };
}
