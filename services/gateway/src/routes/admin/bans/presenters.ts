import type { IpBan, ValueBan, ValueBanKind } from '@switchboard/db';
import { parseIpNetwork } from '@switchboard/ip';
import type { IpBanEntry } from '../../../ip-bans/index.ts';

/** Answer of every check route (docs/decisions.md#bans): metadata only when banned. */
export type BanCheckResponse =
  | { banned: false }
  | { banned: true; reason: string | null; expires_at: string | null; created_at: string; matched: string };

const NOT_BANNED: BanCheckResponse = { banned: false };

function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

export function presentValueCheck(ban: ValueBan | null): BanCheckResponse {
  if (!ban) return NOT_BANNED;
  return {
    banned: true,
    reason: ban.reason,
    expires_at: iso(ban.expiresAt),
    created_at: ban.createdAt.toISOString(),
    matched: ban.value,
  };
}

export function presentIpCheck(entry: IpBanEntry | null): BanCheckResponse {
  if (!entry) return NOT_BANNED;
  return {
    banned: true,
    reason: entry.reason,
    expires_at: entry.expiresAtMs === null ? null : new Date(entry.expiresAtMs).toISOString(),
    created_at: new Date(entry.createdAtMs).toISOString(),
    matched: entry.network.canonical,
  };
}

/** A value ban in a list page: the full object, or (simple) Fluxer's bare string. */
export function presentValueBan(kind: ValueBanKind, ban: ValueBan, simple: boolean): unknown {
  if (simple) return ban.value;
  return {
    [kind]: ban.value,
    reason: ban.reason,
    expires_at: iso(ban.expiresAt),
    created_by: ban.createdBy,
    created_at: ban.createdAt.toISOString(),
  };
}

/** Canonical text of a stored network (PostgreSQL writes `10.0.0.1/32`; ours is `10.0.0.1`). */
export function canonicalNetwork(cidrText: string): string {
  return parseIpNetwork(cidrText)?.canonical ?? cidrText;
}

export function presentIpBan(ban: IpBan, reverseDns: string | null) {
  return {
    ip: canonicalNetwork(ban.network),
    reverse_dns: reverseDns,
    reason: ban.reason,
    expires_at: iso(ban.expiresAt),
    created_by: ban.createdBy,
    created_at: ban.createdAt.toISOString(),
  };
}
