import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

/** The parts of a request (node or express) that client-IP resolution reads. */
export interface ClientIpSource {
  readonly headers: IncomingHttpHeaders;
  readonly socket: { readonly remoteAddress?: string | undefined };
}

/** Returned when the socket has already closed and no address is known. */
export const UNKNOWN_CLIENT_IP = 'unknown';

/**
 * The client's address, trusting exactly `trustedProxyHops` reverse proxies in front of us.
 *
 * Each proxy appends the address it received the request from to `X-Forwarded-For`, so with
 * N trusted proxies the client is the N-th entry from the right; everything to its left was
 * written by the client and can be forged. With 0 hops the header is never read. A header
 * with fewer entries than hops did not pass every trusted proxy (a client reaching us directly
 * writes what it likes there), so none of it is believed and the socket address is the client.
 * An entry that is not an IP address (a misbehaving proxy) falls back to the socket address.
 */
export function clientIp(req: ClientIpSource, trustedProxyHops: number): string {
  const socketAddress = normalizeIp(req.socket.remoteAddress ?? '') ?? UNKNOWN_CLIENT_IP;
  if (trustedProxyHops <= 0) return socketAddress;
  const forwarded = forwardedFor(req.headers['x-forwarded-for']);
  if (forwarded.length < trustedProxyHops) return socketAddress;
  return normalizeIp(forwarded[forwarded.length - trustedProxyHops] ?? '') ?? socketAddress;
}

function forwardedFor(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  // Repeated headers are one list in order (RFC 9110 §5.3).
  const joined = Array.isArray(header) ? header.join(',') : header;
  return joined
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * Canonical text of an address, or null when it is not one: IPv4-mapped IPv6 becomes IPv4,
 * IPv6 is lower-cased and compressed (RFC 5952), and a port some proxies append
 * (`1.2.3.4:5678`, `[2001:db8::1]:443`) is dropped. Zone ids are kept.
 */
export function normalizeIp(input: string): string | null {
  const address = stripPort(input.trim());
  if (isIP(address) === 4) return address;
  if (isIP(address) !== 6) return null;
  const canonical = canonicalIpv6(address);
  return ipv4FromMapped(canonical) ?? canonical;
}

/** `::ffff:102:304` (the canonical spelling of `::ffff:1.2.3.4`) as `1.2.3.4`. */
function ipv4FromMapped(canonical: string): string | null {
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped?.[1] === undefined || mapped[2] === undefined) return null;
  const high = Number.parseInt(mapped[1], 16);
  const low = Number.parseInt(mapped[2], 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

function stripPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed?.[1] !== undefined) return bracketed[1];
  const ipv4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(address);
  return ipv4WithPort?.[1] ?? address;
}

function canonicalIpv6(address: string): string {
  const zoneAt = address.indexOf('%');
  const bare = zoneAt === -1 ? address : address.slice(0, zoneAt);
  const zone = zoneAt === -1 ? '' : address.slice(zoneAt);
  // The URL parser implements RFC 5952 compression and lower-casing.
  const host = new URL(`http://[${bare}]/`).hostname;
  return `${host.slice(1, -1)}${zone}`;
}
