import type { RequestHandler } from 'express';
import { issueAdminApiKey } from '@switchboard/auth';
import { deleteAdminApiKey, findAdminApiKeyById, listAdminApiKeysByAdmin, withTransaction } from '@switchboard/db';
import type { z } from 'zod';
import type { successResponseSchema } from '@switchboard/contracts';
import { ApiError, validate } from '@switchboard/http';
import {
  actingKey,
  adminPrincipal,
  auditReason,
  grantedAcl,
  missingAcl,
  recordAudit,
  type AdminPrincipal,
} from '../../../admin-auth/index.ts';
import { commitCredentialChange } from '../../../change-feed.ts';
import type { GatewayDeps } from '../../../deps.ts';
import type { AdminHandlers } from '../handlers.ts';
import { presentApiKey, presentCreatedApiKey } from './presenter.ts';
import { snowflakeFromPath } from '../path-id.ts';
import { createApiKeySchema } from './schemas.ts';

/** Audit vocabulary for key management (docs/decisions.md#every-admin-write-is-audited). */
const TARGET_TYPE = 'admin_api_key';

/** The first requested ACL the caller does not hold through both its owner and its key. */
function firstUngrantable(principal: AdminPrincipal, acls: readonly string[]): string | null {
  return acls.find((acl) => grantedAcl(principal, [acl]) === null) ?? null;
}

const DAY_MS = 86_400_000;

/**
 * A key with an expiry may only create keys that expire no later than itself: asking for no
 * expiry, or for more whole days than it has left (counted up: a key with 20 hours left may
 * ask for 1 day), is 400 at `expires_in_days`. A permitted request is cut at the creator's own
 * expiry, and the answer's `expires_at` says when. Refused rather than silently shortened, so
 * nobody believes they hold a year-long key that dies tomorrow.
 */
function checkLifetime(principal: AdminPrincipal, expiresInDays: number | undefined): void {
  if (principal.keyExpiresAt === null) return;
  const daysLeft = Math.max(1, Math.ceil((principal.keyExpiresAt.getTime() - Date.now()) / DAY_MS));
  if (expiresInDays !== undefined && expiresInDays <= daysLeft) return;
  const message =
    expiresInDays === undefined
      ? `This key expires at ${principal.keyExpiresAt.toISOString()}: keys it creates must expire too (expires_in_days at most ${daysLeft}).`
      : `This key expires at ${principal.keyExpiresAt.toISOString()}: keys it creates may not outlive it (expires_in_days at most ${daysLeft}).`;
  throw new ApiError('INVALID_FORM_BODY', {
    errors: [{ path: 'expires_in_days', message, code: 'KEY_OUTLIVES_CREATOR' }],
  });
}

function createKey({ pool, ids }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const body = validate(createApiKeySchema, req.body);
    const principal = adminPrincipal(res);
    const acls = [...new Set(body.acls)];
    const ungrantable = firstUngrantable(principal, acls);
    if (ungrantable !== null) throw missingAcl(ungrantable);
    checkLifetime(principal, body.expires_in_days);
    // The same service the CLI's `admin create` uses; the audit entry commits with the key.
    const issued = await withTransaction(pool, async (client) => {
      const created = await issueAdminApiKey(client, ids, {
        adminUserId: principal.adminUserId,
        name: body.name,
        acls,
        expiresInDays: body.expires_in_days ?? null,
        notAfter: principal.keyExpiresAt,
      });
      await recordAudit(client, ids, {
        ...actingKey(principal),
        targetType: TARGET_TYPE,
        targetId: created.record.id,
        action: 'create_admin_api_key',
        reason: auditReason(req),
        metadata: { name: created.record.name, acls: created.record.acls.join(',') },
      });
      return created;
    });
    res.json(presentCreatedApiKey(issued.record, issued.key));
  };
}

/** The caller's (owner's) keys, newest first. Expired keys are gone, as Fluxer's TTL makes them. */
function listKeys({ pool }: GatewayDeps): RequestHandler {
  return async (_req, res) => {
    const now = Date.now();
    const keys = await listAdminApiKeysByAdmin(pool, adminPrincipal(res).adminUserId);
    res.json(keys.filter((key) => key.expiresAt === null || key.expiresAt.getTime() > now).map(presentApiKey));
  };
}

/**
 * Unknown, malformed, expired and other admins' keys are all 404: none of them is yours. The
 * answer waits until no gateway process can still accept the key (docs/decisions.md#admin-key-management).
 */
function deleteKey({ pool, ids, changeFeed }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const keyId = snowflakeFromPath(req.params['keyId']);
    const principal = adminPrincipal(res);
    const { adminUserId } = principal;
    if (keyId === null) throw new ApiError('ADMIN_API_KEY_NOT_FOUND');
    const deleted = await commitCredentialChange(pool, changeFeed, async (client) => {
      const key = await findAdminApiKeyById(client, keyId);
      const live = key !== null && (key.expiresAt === null || key.expiresAt.getTime() > Date.now());
      if (!live || key.adminUserId !== adminUserId) return { result: false, changed: false };
      if (!(await deleteAdminApiKey(client, { id: keyId, adminUserId }))) return { result: false, changed: false };
      await recordAudit(client, ids, {
        ...actingKey(principal),
        targetType: TARGET_TYPE,
        targetId: keyId,
        action: 'delete_admin_api_key',
        reason: auditReason(req),
        metadata: { name: key.name, acls: key.acls.join(',') },
      });
      return { result: true, changed: true };
    });
    if (!deleted) throw new ApiError('ADMIN_API_KEY_NOT_FOUND');
    const body: z.output<typeof successResponseSchema> = { success: true };
    res.json(body);
  };
}

export function apiKeyHandlers(deps: GatewayDeps): AdminHandlers {
  return {
    'POST /v1/admin/api-keys': createKey(deps),
    'GET /v1/admin/api-keys': listKeys(deps),
    'DELETE /v1/admin/api-keys/:keyId': deleteKey(deps),
  };
}
