import type { RequestHandler } from 'express';
import { ApiError, clientIp } from '@switchboard/http';
import { parseIpAddress } from '@switchboard/ip';
import { PROBE_PATHS } from '../routes/health.ts';
import type { IpBans } from './sync.ts';

export interface IpBanEnforcementOptions {
  ipBans: IpBans;
  /** TRUSTED_PROXY_HOPS: which X-Forwarded-For entry is the client. */
  trustedProxyHops: number;
  /** How long a request waits for the first load of the bans before a 503 (milliseconds). */
  loadWaitMs: number;
}

/**
 * Probes of the process itself: a banned or loading state must not get a replica restarted,
 * nor hide its metrics (a first load that keeps failing is what they must show).
 */
const EXEMPT_PATHS = new Set<string>(Object.values(PROBE_PATHS));

/**
 * 403 `IP_BANNED` for a client address covered by a live ban, on every route but health and metrics.
 * Requests never go through unchecked: until the first load finishes they wait for it, and
 * past `loadWaitMs` answer 503 (readiness reports the replica not ready meanwhile).
 */
export function ipBanEnforcement({ ipBans, trustedProxyHops, loadWaitMs }: IpBanEnforcementOptions): RequestHandler {
  const check: RequestHandler = (req, _res, next) => {
    // A zone id (`fe80::1%eth0`) names the interface, not the address.
    const address = parseIpAddress(clientIp(req, trustedProxyHops).split('%')[0]!);
    if (address && ipBans.covers(address)) return next(new ApiError('IP_BANNED'));
    next();
  };
  return (req, res, next) => {
    if (EXEMPT_PATHS.has(req.path)) return next();
    if (ipBans.loaded) return check(req, res, next);
    ipBans.whenLoaded(loadWaitMs).then((loaded) => {
      if (loaded) return check(req, res, next);
      next(new ApiError('SERVICE_UNAVAILABLE', { message: 'IP bans are not loaded yet.', headers: { 'Retry-After': '1' } }));
    }, next);
  };
}
