import type { Request, RequestHandler } from 'express';
import { ACL, ADMIN_ROUTES, aclsGrant } from '@switchboard/contracts';
import { ApiError, clientIp, responseLocal } from '@switchboard/http';
import { findAdminPrincipal, grantedAcl } from '../admin-auth/index.ts';
import { parseIpAddress, type IpNetwork } from '@switchboard/ip';
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
 * The ban-removal routes. A banned client's request to one is not refused here but let on to
 * the admin chain, which refuses it (ipBanDeferredCheck) unless it authenticated a key holding
 * the route's ACL: one over-wide ban must not lock out the admins who would lift it.
 */
const BAN_REMOVAL_ACLS = new Set<string>([ACL.banIpRemove, ACL.banEmailRemove, ACL.banPhoneRemove]);
export const BAN_REMOVAL_PATHS: ReadonlySet<string> = new Set(
  ADMIN_ROUTES.filter((route) => route.method === 'POST' && route.anyOf.every((acl) => BAN_REMOVAL_ACLS.has(acl))).map(
    (route) => route.path,
  ),
);

/** Set on a banned client's request to a ban-removal route: the admin chain decides. */
const deferredSlot = responseLocal<true>('ipBanDeferred', 'ipBanDeferred read before it was set');

/**
 * The admin chain's half of the ban-removal exemption, right after the principal is resolved
 * (before the rate limit, 401 and 403): a request whose IP ban was deferred goes on only with a
 * valid key whose owner may authenticate and that grants one of `anyOf`; any other is 403
 * `IP_BANNED`, as it would have been without the exemption.
 */
export function ipBanDeferredCheck(anyOf: readonly string[]): RequestHandler {
  return (_req, res, next) => {
    if (deferredSlot.find(res) === undefined) return next();
    const principal = findAdminPrincipal(res);
    const admitted =
      principal !== undefined &&
      aclsGrant(principal.ownerAcls, ACL.authenticate) &&
      grantedAcl(principal, anyOf) !== null;
    next(admitted ? undefined : new ApiError('IP_BANNED'));
  };
}

/** A connection's last client address, as text and parsed. */
interface SeenAddress {
  text: string;
  address: IpNetwork | null;
}

/**
 * The parsed client address of a request, parsed once per connection while it stays the same:
 * a keep-alive connection's requests come from one peer, and behind a proxy mostly for one
 * client. The bans are still asked on every request; only the parse is kept, which saves the
 * ban check CPU (packages/bench/README.md#http-path).
 */
function connectionAddresses(trustedProxyHops: number): (req: Request) => IpNetwork | null {
  const seen = new WeakMap<object, SeenAddress>();
  return (req) => {
    const text = clientIp(req, trustedProxyHops);
    const last = seen.get(req.socket);
    if (last?.text === text) return last.address;
    // A zone id (`fe80::1%eth0`) names the interface, not the address.
    const address = parseIpAddress(text.split('%')[0]!);
    seen.set(req.socket, { text, address });
    return address;
  };
}

/**
 * 403 `IP_BANNED` for a client address covered by a live ban, on every route but health and
 * metrics; on the ban-removal routes the refusal waits for authentication (ipBanDeferredCheck).
 * Requests never go through unchecked: until the first load finishes they wait for it, and
 * past `loadWaitMs` answer 503 (readiness reports the replica not ready meanwhile).
 */
export function ipBanEnforcement({ ipBans, trustedProxyHops, loadWaitMs }: IpBanEnforcementOptions): RequestHandler {
  const addressOf = connectionAddresses(trustedProxyHops);
  const check: RequestHandler = (req, res, next) => {
    const address = addressOf(req);
    if (!address || !ipBans.covers(address)) return next();
    if (req.method === 'POST' && BAN_REMOVAL_PATHS.has(req.path)) {
      deferredSlot.set(res, true);
      return next();
    }
    next(new ApiError('IP_BANNED'));
  };
  return (req, res, next) => {
    if (EXEMPT_PATHS.has(req.path)) return next();
    if (ipBans.loaded) return check(req, res, next);
    ipBans.whenLoaded(loadWaitMs).then((loaded) => {
      if (loaded) return check(req, res, next);
      next(
        new ApiError('SERVICE_UNAVAILABLE', {
          message: 'IP bans are not loaded yet.',
          headers: { 'Retry-After': '1' },
        }),
      );
    }, next);
  };
}
