import { z } from 'zod';
import {
  ADMIN_ROUTES,
  assetPurgeResultSchema,
  bulkOperationResultSchema,
  OPERATION_STATUSES,
  type ErrorCode,
} from '@switchboard/contracts';
import type { GatewayConfig } from '../config.ts';
import { apiKeyResponseSchema, createdApiKeyResponseSchema } from '../routes/admin/api-keys/presenter.ts';
import { createApiKeySchema } from '../routes/admin/api-keys/schemas.ts';
import {
  archivePathSchema,
  listArchivesSchema,
  triggerGuildSchema,
  triggerUserSchema,
} from '../routes/admin/archives/schemas.ts';
import { purgeRequestSchema } from '../routes/admin/assets/schemas.ts';
import { listAuditLogsSchema, searchAuditLogsSchema } from '../routes/admin/audit-logs/schemas.ts';
import * as bans from '../routes/admin/bans/schemas.ts';
import { bulkAddSchema } from '../routes/admin/bulk/schemas.ts';
import { routeKey } from '../routes/admin/handlers.ts';
import { listFailedJobsQuery, retryJobsBody } from '../routes/admin/jobs/schemas.ts';
import { adminWebhookResponseSchema, listWebhooksSchema } from '../routes/admin/webhooks/schemas.ts';
import { BODY_READ, EVERY_ROUTE } from './errors.ts';
import { jsonObject, NO_CONTENT, presented, type OperationSpec, type SuccessSpec } from './operation.ts';

/** What an admin route adds to what ADMIN_ROUTES says of it: the schemas its handler validates with. */
type AdminDoc = Pick<OperationSpec, 'summary' | 'description' | 'params' | 'query' | 'body'> & {
  success: readonly SuccessSpec[];
  /** Codes of the handler itself, beyond the auth chain's. */
  errors?: readonly ErrorCode[];
};

/**
 * The chain every admin route runs (adminRouter): failure budget and rate limit → 401 → 403
 * MISSING_PERMISSIONS → 403 MISSING_ACL → JSON body (1 MiB) → validation.
 */
const ADMIN_CHAIN: readonly ErrorCode[] = [
  ...EVERY_ROUTE,
  'RATE_LIMITED',
  'UNAUTHORIZED',
  'MISSING_PERMISSIONS',
  'MISSING_ACL',
  ...BODY_READ,
];

/**
 * 202 of an enqueue-and-wait route (docs/decisions.md#operation-rows-and-status-routes): the
 * operation's id and status, read back by its status route.
 */
function running(idField: string): SuccessSpec {
  return {
    status: 202,
    description: 'Still running after ADMIN_JOB_WAIT_MS: poll the status route with the id.',
    json: {
      type: 'object',
      properties: { [idField]: { type: 'string' }, status: { enum: [...OPERATION_STATUSES] } },
      required: [idField, 'status'],
    },
  };
}

/** An audit page; each entry names the admin and the API key that acted (`api_key_id`, null for old entries). */
const AUDIT_PAGE =
  '`logs` (each: `log_id`, `admin_user_id`, `api_key_id`, `target_type`, `target_id`, `action`, `audit_log_reason`, `metadata`, `created_at`) and `total`.';

const BANNED = { email: 'email addresses', ip: 'IP addresses or CIDR ranges', phone: 'phone numbers' } as const;

function banDocs(
  kind: keyof typeof BANNED,
  add: z.ZodType,
  check: z.ZodType,
  remove: z.ZodType,
): Record<string, AdminDoc> {
  const prefix = `POST /v1/admin/bans/${kind}`;
  const values = BANNED[kind];
  return {
    [`${prefix}/add`]: { summary: `Ban ${values}`, body: add, success: [NO_CONTENT] },
    [`${prefix}/check`]: {
      summary: `Check a ban on one of the ${values}`,
      body: check,
      success: [jsonObject('BanCheckResponse: whether it is banned, with reason and expiry.')],
    },
    [`${prefix}/list`]: {
      summary: `List banned ${values}`,
      body: bans.listSchema,
      success: [jsonObject('A page of bans and `next_cursor`.')],
    },
    [`${prefix}/remove`]: { summary: `Lift bans on ${values}`, body: remove, success: [NO_CONTENT] },
  };
}

/** Keyed by routeKey() as ADMIN_ROUTES: adminOperations refuses a route without its entry, and an entry without its route. */
function adminDocs(config: GatewayConfig): Record<string, AdminDoc> {
  return {
    'POST /v1/admin/api-keys': {
      summary: 'Create an admin API key (its key is shown once)',
      description:
        'The new key holds no ACL the calling key and its owner do not both hold (403 MISSING_ACL), and never outlives the calling key: ' +
        'a calling key that expires must send `expires_in_days`, at most the whole days it has left counted up (400 at `expires_in_days` ' +
        "otherwise), and the new key is cut at the calling key's expiry (`expires_at` says when).",
      body: createApiKeySchema,
      success: [presented('The key (shown only now) and its metadata.', createdApiKeyResponseSchema)],
    },
    'GET /v1/admin/api-keys': {
      summary: "List the caller's admin API keys",
      success: [presented('Key metadata, no key material.', z.array(apiKeyResponseSchema))],
    },
    'DELETE /v1/admin/api-keys/:keyId': {
      summary: 'Revoke an admin API key',
      success: [jsonObject('`{"success": true}`')],
      errors: ['ADMIN_API_KEY_NOT_FOUND'],
    },
    'POST /v1/admin/archives/user': {
      summary: "Export a user's data",
      body: triggerUserSchema,
      success: [jsonObject('The archive.')],
      errors: ['UNKNOWN_USER'],
    },
    'POST /v1/admin/archives/guild': {
      summary: "Export a guild's data",
      body: triggerGuildSchema,
      success: [jsonObject('The archive.')],
      errors: ['UNKNOWN_GUILD'],
    },
    'POST /v1/admin/archives/list': {
      summary: 'List archives',
      body: listArchivesSchema,
      success: [jsonObject('`archives` and `next_cursor`.')],
    },
    'GET /v1/admin/archives/:subjectType/:subjectId/:archiveId': {
      summary: "An archive's metadata",
      params: archivePathSchema,
      success: [jsonObject('`{archive}`: the archive, or null.')],
    },
    'GET /v1/admin/archives/:subjectType/:subjectId/:archiveId/download': {
      summary: 'A time-limited download link of an archive',
      params: archivePathSchema,
      success: [jsonObject('`downloadUrl` and `expiresAt`.')],
      errors: ['UNKNOWN_HARVEST', 'HARVEST_NOT_READY', 'HARVEST_FAILED', 'HARVEST_EXPIRED'],
    },
    'POST /v1/admin/assets/purge': {
      summary: "Purge emoji and sticker assets, or a whole guild's",
      body: purgeRequestSchema,
      success: [
        { status: 200, description: 'The outcome, per item.', schema: assetPurgeResultSchema },
        running('purge_id'),
      ],
      errors: ['UNKNOWN_GUILD'],
    },
    'GET /v1/admin/assets/purges/:purgeId': {
      summary: 'The status (and outcome) of an asset purge',
      success: [jsonObject('`purge_id`, `status`, and the outcome once completed.')],
      errors: ['UNKNOWN_ASSET_PURGE'],
    },
    'POST /v1/admin/audit-logs': {
      summary: 'List audit log entries',
      body: listAuditLogsSchema,
      success: [jsonObject(AUDIT_PAGE)],
    },
    'POST /v1/admin/audit-logs/search': {
      summary: 'Search audit log entries',
      body: searchAuditLogsSchema,
      success: [jsonObject(AUDIT_PAGE)],
    },
    ...banDocs('email', bans.emailAddSchema, bans.emailCheckSchema, bans.emailRemoveSchema),
    ...banDocs('ip', bans.ipAddSchema, bans.ipCheckSchema, bans.ipRemoveSchema),
    ...banDocs('phone', bans.phoneAddSchema, bans.phoneCheckSchema, bans.phoneRemoveSchema),
    'POST /v1/admin/bulk/add-guild-members': {
      summary: 'Add users to a guild',
      body: bulkAddSchema(config.BULK_MAX_USER_IDS),
      success: [
        { status: 200, description: 'The outcome, per user.', schema: bulkOperationResultSchema },
        running('operation_id'),
      ],
    },
    'GET /v1/admin/bulk/operations/:operationId': {
      summary: 'The status (and outcome) of a bulk operation',
      success: [jsonObject('`operation_id`, `status`, and the outcome once completed.')],
      errors: ['UNKNOWN_BULK_OPERATION'],
    },
    'GET /v1/admin/jobs/failed': {
      summary: 'Failed jobs of every queue',
      query: listFailedJobsQuery,
      success: [jsonObject('`jobs` and `total`.')],
    },
    'POST /v1/admin/jobs/retry': {
      summary: 'Retry failed jobs',
      body: retryJobsBody,
      success: [jsonObject('`retried` and `errors`.')],
    },
    'POST /v1/admin/webhooks/list': {
      summary: "A guild's or a channel's webhooks (no token, no secret)",
      body: listWebhooksSchema,
      success: [presented('`webhooks`, oldest first.', z.object({ webhooks: z.array(adminWebhookResponseSchema) }))],
    },
    'GET /v1/admin/webhooks/:webhookId': {
      summary: 'A webhook (no token, no secret)',
      success: [presented('The webhook.', adminWebhookResponseSchema)],
      errors: ['UNKNOWN_WEBHOOK'],
    },
    'DELETE /v1/admin/webhooks/:webhookId': {
      summary: 'Delete a webhook (audited); its token stops working on every replica before the answer',
      success: [NO_CONTENT],
      errors: ['UNKNOWN_WEBHOOK'],
    },
    'POST /v1/admin/dashboard/session': {
      summary: 'Exchange the admin key for a queue dashboard session (HttpOnly cookie)',
      // Nothing to send: the key in the Authorization header is what is exchanged.
      body: z.object({}),
      success: [jsonObject('`dashboard_url` and `expires_at`; the session is the `Set-Cookie` header.')],
    },
  };
}

/**
 * Every ADMIN_ROUTES entry as an operation: method, path, ACLs and bucket from the table (the
 * one the router mounts), schemas from the area's own modules. A table route without a doc
 * entry, or an entry naming no route, stops start-up as an unserved route does.
 */
export function adminOperations(config: GatewayConfig): OperationSpec[] {
  const docs = adminDocs(config);
  const known = new Set(ADMIN_ROUTES.map(routeKey));
  for (const key of Object.keys(docs))
    if (!known.has(key)) throw new Error(`OpenAPI: "${key}" is not an ADMIN_ROUTES entry`);
  return ADMIN_ROUTES.map((route) => {
    const doc = docs[routeKey(route)];
    if (!doc) throw new Error(`OpenAPI: admin route "${routeKey(route)}" is not described`);
    return {
      ...doc,
      method: route.method.toLowerCase() as OperationSpec['method'],
      path: route.path,
      tag: 'admin',
      security: 'adminApiKey',
      errors: [...ADMIN_CHAIN, ...(doc.errors ?? [])],
      extensions: { 'x-required-acls': { anyOf: route.anyOf }, 'x-rate-limit-bucket': route.bucket },
    };
  });
}
