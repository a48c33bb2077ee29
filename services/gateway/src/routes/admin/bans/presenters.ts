import type { z } from 'zod';
import type {
  BanCheckResponse,
  emailBanListResponseSchema,
  IpBanResponse,
  ipBanListResponseSchema,
  phoneBanListResponseSchema,
} from '@switchboard/contracts';
import type { IpBan, ValueBan, ValueBanKind } from '@switchboard/db';
import { parseIpNetwork } from '@switchboard/ip';
import type { IpBanEntry } from '../../../ip-bans/index.ts';

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

/** A page of email or phone bans, by kind. */
export type ValueBanListResponse =
  | z.output<typeof emailBanListResponseSchema>
  | z.output<typeof phoneBanListResponseSchema>;

function banFields(ban: ValueBan) {
  return {
    reason: ban.reason,
    expires_at: iso(ban.expiresAt),
    created_by: ban.createdBy,
    created_at: ban.createdAt.toISOString(),
  };
}

/** A page of value bans: the full objects, or (simple) Fluxer's bare strings. */
export function presentValueBanList(
  kind: ValueBanKind,
  bans: ValueBan[],
  simple: boolean,
  nextCursor: string | null,
): ValueBanListResponse {
  if (kind === 'email')
    return {
      bans: bans.map((ban) => (simple ? ban.value : { email: ban.value, ...banFields(ban) })),
      next_cursor: nextCursor,
    };
  return {
    bans: bans.map((ban) => (simple ? ban.value : { phone: ban.value, ...banFields(ban) })),
    next_cursor: nextCursor,
  };
}

/** Canonical text of a stored network (PostgreSQL writes `10.0.0.1/32`; ours is `10.0.0.1`). */
export function canonicalNetwork(cidrText: string): string {
  return parseIpNetwork(cidrText)?.canonical ?? cidrText;
}

export function presentIpBan(ban: IpBan, reverseDns: string | null): IpBanResponse {
  return {
    ip: canonicalNetwork(ban.network),
    reverse_dns: reverseDns,
    reason: ban.reason,
    expires_at: iso(ban.expiresAt),
    created_by: ban.createdBy,
    created_at: ban.createdAt.toISOString(),
  };
}

export function presentIpBanList(
  bans: IpBan[],
  reverseDnsOf: (ban: IpBan) => string | null,
  nextCursor: string | null,
): z.output<typeof ipBanListResponseSchema> {
  return { bans: bans.map((ban) => presentIpBan(ban, reverseDnsOf(ban))), next_cursor: nextCursor };
}
