import { formatIpv6Groups } from './words.ts';

/**
 * Strict parsing of IP addresses and CIDR ranges. Addresses become 128-bit integers (IPv4 in
 * the low 32 bits) so that ranges are integer intervals; IPv4-mapped IPv6 (`::ffff:a.b.c.d`)
 * is treated as the IPv4 address, so one address has one canonical form however it is written.
 */
export type IpFamily = 4 | 6;

export interface IpNetwork {
  family: IpFamily;
  /** First address of the range (host bits cleared). */
  start: bigint;
  /** Last address of the range. */
  end: bigint;
  /** 32 or 128 for a single address. */
  prefix: number;
  /** Canonical text: dotted IPv4 or RFC 5952 IPv6, with `/prefix` only for ranges. */
  canonical: string;
}

const IPV4_OCTET = /^(0|[1-9][0-9]{0,2})$/;
const IPV6_GROUP = /^[0-9a-fA-F]{1,4}$/;
const PREFIX = /^(0|[1-9][0-9]{0,2})$/;
const MAPPED_PREFIX = 0xffffn << 32n;

/** The address as an unsigned 32-bit number (numbers, not bigints: this runs for every request). */
function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    // Leading zeros are refused: some parsers read them as octal, so they are ambiguous.
    if (!IPV4_OCTET.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

function parseGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups: number[] = [];
  const parts = text.split(':');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (v4 === null) return null;
      groups.push(v4 >>> 16, v4 & 0xffff);
    } else if (IPV6_GROUP.test(part)) {
      groups.push(parseInt(part, 16));
    } else {
      return null;
    }
  }
  return groups;
}

function parseIpv6(text: string): bigint | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0]!);
  const tail = halves.length === 2 ? parseGroups(halves[1]!) : [];
  if (!head || !tail) return null;
  // An embedded IPv4 part may only end the address.
  if (halves.length === 2 && halves[0]!.includes('.')) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

function formatIpv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 0xff}.${(value >>> 8) & 0xff}.${value & 0xff}`;
}

/** RFC 5952 (see formatIpv6Groups). */
function formatIpv6(value: bigint): string {
  return formatIpv6Groups(Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn)));
}

export function formatAddress(family: IpFamily, value: bigint): string {
  return family === 4 ? formatIpv4(Number(value)) : formatIpv6(value);
}

function ipv4Network(address: number, prefix: number): IpNetwork {
  const hostMask = prefix === 0 ? 0xffffffff : prefix === 32 ? 0 : 0xffffffff >>> prefix;
  const start = (address & ~hostMask) >>> 0;
  const text = formatIpv4(start);
  return {
    family: 4,
    start: BigInt(start),
    end: BigInt((start | hostMask) >>> 0),
    prefix,
    canonical: prefix === 32 ? text : `${text}/${prefix}`,
  };
}

function ipv6Network(address: bigint, prefix: number): IpNetwork {
  const hostMask = (1n << BigInt(128 - prefix)) - 1n;
  const start = address & ~hostMask;
  const text = formatIpv6(start);
  return { family: 6, start, end: start | hostMask, prefix, canonical: prefix === 128 ? text : `${text}/${prefix}` };
}

/**
 * Parses an address or CIDR range. Brackets around IPv6 are allowed; zone ids, leading-zero
 * octets, out-of-range prefixes and anything else are refused (null). Host bits of a range are
 * cleared (`10.1.2.3/8` is `10.0.0.0/8`); `/32` and `/128` are single addresses.
 */
export function parseIpNetwork(input: string): IpNetwork | null {
  let text = input.trim();
  let prefixText: string | undefined;
  const slash = text.indexOf('/');
  if (slash >= 0) {
    prefixText = text.slice(slash + 1);
    text = text.slice(0, slash);
    if (!PREFIX.test(prefixText)) return null;
  }
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.length === 0 || text.length > 45) return null;

  if (!text.includes(':')) {
    const v4 = parseIpv4(text);
    const prefix = prefixText === undefined ? 32 : Number(prefixText);
    return v4 === null || prefix > 32 ? null : ipv4Network(v4, prefix);
  }
  const v6 = parseIpv6(text);
  const prefix = prefixText === undefined ? 128 : Number(prefixText);
  if (v6 === null || prefix > 128) return null;
  if (prefix >= 96 && v6 >> 32n === MAPPED_PREFIX >> 32n) {
    return ipv4Network(Number(v6 & 0xffffffffn), prefix - 96);
  }
  return ipv6Network(v6, prefix);
}

/** Parses a single address (or a /32, /128) only; null for wider ranges and garbage. */
export function parseIpAddress(input: string): IpNetwork | null {
  const parsed = parseIpNetwork(input);
  return parsed && parsed.start === parsed.end ? parsed : null;
}
