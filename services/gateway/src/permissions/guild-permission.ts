import type { RequestHandler, Response } from 'express';
import { z } from 'zod';
import { hasPermission, snowflakeSchema, type ErrorCode } from '@switchboard/contracts';
import type { Queryable } from '@switchboard/db';
import { ApiError, responseLocal, validate } from '@switchboard/http';
import { userPrincipal } from '../user-auth/index.ts';
import { findGuildAccess, type AccessSubject } from './access-query.ts';
import { computePermissions } from './compute.ts';

/** The caller's standing in the guild of the route's subject, once checked. */
export interface GuildAccess {
  /** The validated id the check started from (the route's channel, guild or webhook). */
  subjectId: string;
  guildId: string;
  userId: string;
  permissions: bigint;
}

const UNKNOWN: Record<AccessSubject, ErrorCode> = {
  guild: 'UNKNOWN_GUILD',
  channel: 'UNKNOWN_CHANNEL',
  webhook: 'UNKNOWN_WEBHOOK',
};

/**
 * The caller's access to the guild of `subjectId`, or the error Fluxer answers (webhook
 * docs/decisions.md#fluxer-webhook-permission-and-limits): an unknown subject or a channel outside
 * any guild is 404 (before any permission is considered), a non-member 403 `MISSING_ACCESS`, a
 * member lacking any bit of `permission` 403 `MISSING_PERMISSIONS`. `permission: null` only
 * requires membership. The permissions are the channel's when the subject is a channel or a webhook
 * (overwrites apply), the guild's otherwise.
 */
export async function checkGuildPermission(
  db: Queryable,
  check: { subject: AccessSubject; subjectId: string; userId: string; permission: bigint | null },
): Promise<GuildAccess> {
  const row = await findGuildAccess(db, check.subject, check.subjectId, check.userId);
  if (row === null) throw new ApiError(UNKNOWN[check.subject]);
  if (row.guildId === null) throw new ApiError('UNKNOWN_CHANNEL');
  if (!row.isOwner && !row.isMember) throw new ApiError('MISSING_ACCESS');
  const permissions = computePermissions(
    { isOwner: row.isOwner, rolePermissions: BigInt(row.rolePermissions) },
    row.overwrites,
  );
  if (check.permission !== null && !hasPermission(permissions, check.permission))
    throw new ApiError('MISSING_PERMISSIONS');
  return { subjectId: check.subjectId, guildId: row.guildId, userId: check.userId, permissions };
}

const accessSlot = responseLocal<GuildAccess>(
  'guildAccess',
  'guildAccess() called outside a route behind requireGuildPermission()',
);

/** The access requireGuildPermission() established for this request. */
export function guildAccess(res: Response): GuildAccess {
  return accessSlot.get(res);
}

/**
 * Route middleware, after requireUser(): validates the path parameter `param` as a snowflake
 * (400 at that path), then checks the caller's guild permission on it before any handler
 * loads data. The handler reads the result with guildAccess(res).
 */
export function requireGuildPermission(
  db: Queryable,
  options: { subject: AccessSubject; param: string; permission: bigint | null },
): RequestHandler {
  const params = z.object({ [options.param]: snowflakeSchema });
  return async (req, res, next) => {
    const subjectId = validate(params, req.params)[options.param] as string;
    const access = await checkGuildPermission(db, {
      subject: options.subject,
      subjectId,
      userId: userPrincipal(res).userId,
      permission: options.permission,
    });
    accessSlot.set(res, access);
    next();
  };
}
