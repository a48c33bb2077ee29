import type { PacedRequest } from '../../paced-load.ts';
import type { MixLane } from '../../paced-mix.ts';
import { BANNED_ADDRESS } from '../ban-check/seed.ts';
import type { ExecutePayload } from './payloads.ts';
import type { SeededGuild } from './seed.ts';

export type MixGroup = 'executes' | 'ban checks' | 'admin reads' | 'admin writes' | 'operations';

/** A class of requests whose rate is a share of the mix's total rate. */
interface SharedClass {
  name: string;
  group: Exclude<MixGroup, 'operations'>;
  share: number;
  request: Omit<PacedRequest, 'url'> & { path: string };
}

/**
 * Addresses the ban writes add and remove in turn: a documentation range, so no request of the
 * run comes from one of them.
 */
const WRITTEN_BANS = Array.from({ length: 200 }, (_, index) => `203.0.113.${index + 1}`);
/** Latency a lane's connections cover before its requests queue for one: 100 ms of its rate. */
const CONNECTION_SECONDS = 0.1;
const MIN_CONNECTIONS = 2;

function adminPost(key: string, path: string, body: unknown, bodies?: string[]): SharedClass['request'] {
  return {
    path,
    method: 'POST',
    headers: { authorization: `Admin ${key}`, 'content-type': 'application/json' },
    ...(bodies ? { bodies } : { body: JSON.stringify(body) }),
  };
}

/**
 * The mix by share of the total rate: executes of the four formats are the bulk (80 %), then
 * ban checks (10 %), admin reads (ban list, audit list and search, archive list: 8 %) and ban
 * writes (2 %). The heavy operations are not in the total (operations.ts).
 */
export function sharedClasses(guild: SeededGuild, payloads: readonly ExecutePayload[]): SharedClass[] {
  const hook = (format: ExecutePayload['format']) => {
    const found = guild.hooks.find((candidate) => candidate.format === format);
    if (!found) throw new Error(`no ${format} webhook seeded`);
    return `/v1/webhooks/${found.webhookId}/${found.token}`;
  };
  const key = guild.adminKey;
  const executes: SharedClass[] = payloads.map((payload) => ({
    name: `execute ${payload.format}`,
    group: 'executes',
    share: 0.8 / payloads.length,
    request: {
      path: `${hook(payload.format)}${payload.suffix}`,
      method: 'POST',
      body: payload.body,
      headers: payload.headers,
      ...(payload.uniqueHeader ? { uniqueHeader: payload.uniqueHeader } : {}),
    },
  }));
  const addBodies = WRITTEN_BANS.map((ip) => JSON.stringify({ ip, reason: 'bench system write' }));
  const removeBodies = WRITTEN_BANS.map((ip) => JSON.stringify({ ip }));
  return [
    ...executes,
    {
      name: 'ban check ip',
      group: 'ban checks',
      share: 0.08,
      request: adminPost(key, '/v1/admin/bans/ip/check', { ip: BANNED_ADDRESS }),
    },
    {
      name: 'ban check email',
      group: 'ban checks',
      share: 0.02,
      request: adminPost(key, '/v1/admin/bans/email/check', { email: guild.bannedEmail }),
    },
    { name: 'ban list ip', group: 'admin reads', share: 0.02, request: adminPost(key, '/v1/admin/bans/ip/list', {}) },
    { name: 'audit list', group: 'admin reads', share: 0.02, request: adminPost(key, '/v1/admin/audit-logs', {}) },
    {
      name: 'audit search',
      group: 'admin reads',
      share: 0.02,
      request: adminPost(key, '/v1/admin/audit-logs/search', { query: 'spam' }),
    },
    { name: 'archive list', group: 'admin reads', share: 0.02, request: adminPost(key, '/v1/admin/archives/list', {}) },
    {
      name: 'ban add ip',
      group: 'admin writes',
      share: 0.01,
      request: adminPost(key, '/v1/admin/bans/ip/add', undefined, addBodies),
    },
    {
      name: 'ban remove ip',
      group: 'admin writes',
      share: 0.01,
      request: adminPost(key, '/v1/admin/bans/ip/remove', undefined, removeBodies),
    },
  ];
}

/** Connections for a lane at `rate`: enough for CONNECTION_SECONDS of it, at least one per gateway. */
export function connectionsFor(rate: number, gateways: number, maxConnections: number): number {
  const wanted = Math.min(maxConnections, Math.ceil(rate * CONNECTION_SECONDS));
  return Math.max(MIN_CONNECTIONS, gateways, wanted);
}

/** `request` against the gateways: the first's URL, connections spread over all of them. */
export function onGateways(request: SharedClass['request'], gatewayUrls: readonly string[]): PacedRequest {
  const { path, ...rest } = request;
  return { ...rest, url: `${gatewayUrls[0]}${path}`, replicaOrigins: gatewayUrls.slice(1) };
}

/** The shared classes as lanes of a load at `totalRate` requests a second. */
export function sharedLanes(
  classes: readonly SharedClass[],
  gatewayUrls: readonly string[],
  totalRate: number,
  maxConnections: number,
): MixLane[] {
  return classes.map((kind) => {
    const rate = totalRate * kind.share;
    return {
      name: kind.name,
      group: kind.group,
      target: onGateways(kind.request, gatewayUrls),
      requestsPerSecond: rate,
      connections: connectionsFor(rate, gatewayUrls.length, maxConnections),
    };
  });
}

export type { SharedClass };
