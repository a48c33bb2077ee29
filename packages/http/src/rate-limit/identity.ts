import type { Request, Response } from 'express';
import { clientIp } from '../client-ip.ts';
import { responseLocal } from '../response-local.ts';

/** Extracts who a request counts against: `user:<id>`, `admin:<ownerId>`, `ip:<address>`. */
export type RateLimitIdentity = (req: Request, res: Response) => string;

const authIdentity = responseLocal<string>('rateLimitIdentity');

/**
 * Auth middlewares call this before the rate limiter runs, with `user:<id>` or
 * `admin:<ownerId>`, so an authenticated caller has one budget whatever its address.
 */
export function setRateLimitIdentity(res: Response, identity: string): void {
  authIdentity.set(res, identity);
}

/** The identity an auth middleware set for this request, if any. */
export function rateLimitIdentityOf(res: Response): string | undefined {
  return authIdentity.find(res);
}

/**
 * The identity auth middlewares set (setRateLimitIdentity), else the client's address. An
 * unauthenticated request is therefore limited by IP (Fluxer does the same).
 */
export function defaultRateLimitIdentity(trustedProxyHops: number): RateLimitIdentity {
  return (req, res) => {
    const fromAuth = rateLimitIdentityOf(res);
    if (fromAuth !== undefined && fromAuth !== '') return fromAuth;
    return ipRateLimitIdentity(clientIp(req, trustedProxyHops));
  };
}

/**
 * `ip:<IPv4>`, or `ip:<the /64>` for IPv6. Better than Fluxer (which keys on the whole
 * address): one host is normally handed a whole /64, so per-address buckets for IPv6 would
 * give a single client 2^64 budgets.
 */
export function ipRateLimitIdentity(ip: string): string {
  if (!ip.includes(':')) return `ip:${ip}`;
  return `ip:${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address without leading zeros; the zone id is dropped. */
function expandIpv6(ip: string): string[] {
  const bare = ip.split('%')[0] ?? ip;
  const [head = '', tail] = bare.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros: string[] = new Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}
