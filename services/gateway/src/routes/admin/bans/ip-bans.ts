import type { Request, RequestHandler } from 'express';
import {
  deleteIpBans,
  listIpBans,
  revokeUserTokensInNetworks,
  upsertIpBans,
  withTransaction,
  type IpBan,
  type RevokedTokens,
} from '@switchboard/db';
import { ApiError, validate } from '@switchboard/http';
import { parseIpNetwork } from '@switchboard/ip';
import { recordAudit } from '../../../admin-auth/index.ts';
import type { GatewayDeps } from '../../../deps.ts';
import type { IpBanEntry } from '../../../ip-bans/index.ts';
import type { AdminHandlers } from '../handlers.ts';
import { actingAdmin, banAuditEntries, page, uniqueBy } from './common.ts';
import { decodeCursor } from './cursor.ts';
import { canonicalNetwork, presentIpBanList, presentIpCheck } from './presenters.ts';
import { createReverseDns, type ReverseDnsLookup } from './reverse-dns.ts';
import { ipAddSchema, ipCheckSchema, ipRemoveSchema, listSchema } from './schemas.ts';
import type { IpValue } from './values.ts';

const BASE = '/v1/admin/bans/ip';
const ID_KEY = /^[0-9]{1,20}$/;

function entryOf(ban: IpBan): IpBanEntry | null {
  const network = parseIpNetwork(ban.network);
  if (!network) return null;
  return {
    network,
    reason: ban.reason,
    expiresAtMs: ban.expiresAt?.getTime() ?? null,
    createdAtMs: ban.createdAt.getTime(),
  };
}

/** Audit metadata of a retroactive add: the tokens revoked inside each network. */
function revokedMetadata(revoked: RevokedTokens | null): (canonical: string) => Record<string, string> {
  if (!revoked) return () => ({});
  const byCanonical = new Map([...revoked.byNetwork].map(([cidr, count]) => [canonicalNetwork(cidr), count]));
  return (canonical) => ({ retroactive: 'true', revoked_tokens: String(byCanonical.get(canonical) ?? 0) });
}

/** The widest range accepted without `force`, per family (config IP_BAN_MIN_PREFIX_V4 / _V6). */
function tooWide(config: GatewayDeps['config']): (value: IpValue) => boolean {
  return ({ network }) =>
    network.prefix < (network.family === 4 ? config.IP_BAN_MIN_PREFIX_V4 : config.IP_BAN_MIN_PREFIX_V6);
}

/**
 * 400 at each value whose range is wider than the configured floor, unless the body says
 * `"force": true`. Paths as the body wrote them: `ip`, then `ips.<n>`.
 */
function refuseWideRanges(req: Request, values: readonly IpValue[], wide: (value: IpValue) => boolean): void {
  const single = (req.body as Record<string, unknown>)['ip'] !== undefined;
  const errors = values.flatMap((value, i) => {
    if (!wide(value)) return [];
    const path = single ? (i === 0 ? 'ip' : `ips.${i - 1}`) : `ips.${i}`;
    const message = `${value.network.canonical} is wider than this gateway bans without "force": true.`;
    return [{ path, message, code: 'RANGE_TOO_WIDE' }];
  });
  if (errors.length > 0) throw new ApiError('INVALID_FORM_BODY', { errors });
}

/**
 * Upsert, optional retroactive token revocation and the audit entries in one transaction; the
 * change is then applied to this replica's index and published to the others.
 */
function addHandler({ pool, ids, ipBans, config }: GatewayDeps): RequestHandler {
  const wide = tooWide(config);
  return async (req, res) => {
    const body = validate(ipAddSchema, req.body);
    if (!body.force) refuseWideRanges(req, body.values, wide);
    const forced = new Set(body.values.filter(wide).map((value) => value.network.canonical));
    const admin = actingAdmin(req, res, body.reason);
    const values = uniqueBy(body.values, (value) => value.network.canonical);
    const canonicals = values.map((value) => value.network.canonical);
    const retroactive = body.retroactive;
    const stored = await withTransaction(pool, async (client) => {
      const rows = await upsertIpBans(
        client,
        values.map((value) => ({ id: ids.next(), network: value.network.canonical, display: value.display })),
        { reason: admin.banReason, expiresAt: body.expiresAt, createdBy: admin.adminUserId },
      );
      const revoked = retroactive ? await revokeUserTokensInNetworks(client, canonicals) : null;
      const revokedOf = revokedMetadata(revoked);
      const metadataOf = (canonical: string) => ({
        ...revokedOf(canonical),
        ...(forced.has(canonical) ? { forced: 'true' } : {}),
      });
      await recordAudit(client, ids, banAuditEntries(admin, 'ip', 'ban', canonicals, metadataOf));
      return rows;
    });
    await ipBans.change({ adds: stored.map(entryOf).filter((entry) => entry !== null), removes: [] });
    res.status(204).end();
  };
}

function removeHandler({ pool, ids, ipBans }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const body = validate(ipRemoveSchema, req.body);
    const admin = actingAdmin(req, res);
    // However it was written: the canonical form is what is stored.
    const canonicals = [...new Set(body.values.map((value) => value.network.canonical))];
    await withTransaction(pool, async (client) => {
      await deleteIpBans(client, canonicals);
      await recordAudit(client, ids, banAuditEntries(admin, 'ip', 'unban', canonicals));
    });
    await ipBans.change({ adds: [], removes: canonicals });
    res.status(204).end();
  };
}

/** From the in-memory index, as enforcement decides: a range asks whether all of it is covered. */
function checkHandler({ ipBans }: GatewayDeps): RequestHandler {
  return (req, res) => {
    const { ip } = validate(ipCheckSchema, req.body);
    res.json(presentIpCheck(ipBans.match(ip.network)));
  };
}

function listHandler({ pool }: GatewayDeps, reverseDns: ReverseDnsLookup): RequestHandler {
  return async (req, res) => {
    const query = validate(listSchema, req.body);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, ID_KEY);
    const rows = await listIpBans(pool, {
      limit: query.limit + 1,
      after,
      includeExpired: query.include_expired,
      contains: query.contains,
    });
    const { rows: bans, nextCursor } = page(rows, query.limit, (ban) => ({ time: ban.cursorTime, key: ban.id }));
    const canonicals = bans.map((ban) => canonicalNetwork(ban.network));
    // Ranges have no single name: only addresses are looked up.
    const names = await reverseDns(canonicals.filter((canonical) => !canonical.includes('/')));
    res.json(presentIpBanList(bans, (ban) => names.get(canonicalNetwork(ban.network)) ?? null, nextCursor));
  };
}

export function ipBanHandlers(deps: GatewayDeps): AdminHandlers {
  const reverseDns = createReverseDns({
    redis: deps.redis,
    prefix: deps.config.REDIS_PREFIX,
    servers: deps.config.DNS_SERVERS,
    timeoutMs: deps.config.REVERSE_DNS_TIMEOUT_MS,
    logger: deps.logger,
  });
  return {
    [`POST ${BASE}/add`]: addHandler(deps),
    [`POST ${BASE}/check`]: checkHandler(deps),
    [`POST ${BASE}/list`]: listHandler(deps, reverseDns),
    [`POST ${BASE}/remove`]: removeHandler(deps),
  };
}
