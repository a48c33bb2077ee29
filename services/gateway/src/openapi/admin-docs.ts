import { z } from 'zod';
import {
  archiveDownloadResponseSchema,
  archiveListResponseSchema,
  archiveLookupResponseSchema,
  archiveResponseSchema,
  assetPurgeAcceptedSchema,
  assetPurgeResultSchema,
  assetPurgeStatusSchema,
  auditLogListResponseSchema,
  LIMITS,
  bulkOperationAcceptedSchema,
  bulkOperationResultSchema,
  bulkOperationStatusSchema,
  dashboardSessionResponseSchema,
  failedJobListResponseSchema,
  jobRetryResponseSchema,
  successResponseSchema,
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
import { bulkAddSchema } from '../routes/admin/bulk/schemas.ts';
import { listFailedJobsQuery, retryJobsBody } from '../routes/admin/jobs/schemas.ts';
import {
  adminWebhookListResponseSchema,
  adminWebhookResponseSchema,
  listWebhooksSchema,
} from '../routes/admin/webhooks/schemas.ts';
import { banDocs } from './admin-bans.ts';
import * as ex from './examples/index.ts';
import { NO_CONTENT, presented, type OperationSpec, type SuccessSpec } from './operation.ts';

/** What an admin route adds to what ADMIN_ROUTES says of it: the schemas its handler validates with. */
export type AdminDoc = Pick<
  OperationSpec,
  'summary' | 'description' | 'params' | 'query' | 'body' | 'requestExample'
> & {
  success: readonly SuccessSpec[];
  /** Codes of the handler itself, beyond the auth chain's. */
  errors?: readonly ErrorCode[];
};

/** 202 of an enqueue-and-wait route (docs/decisions.md#operation-rows-and-status-routes). */
function running(schema: z.ZodType, example: unknown): SuccessSpec {
  return {
    status: 202,
    description: 'Still running after ADMIN_JOB_WAIT_MS: poll the status route with the id.',
    schema,
    example,
  };
}

const TOTAL_NOTE = `exact up to ${LIMITS.auditLogs.exactTotalMax.toLocaleString('en-US')} matches, beyond that an estimate with \`total_is_exact: false\`.`;
const AUDIT_PAGE = { logs: [ex.AUDIT_LOG_ENTRY], total: 1, total_is_exact: true };
const purgeStatus = (status: string) => ({ purge_id: ex.IDS.operation, status });
const bulkStatus = (status: string) => ({ operation_id: ex.IDS.operation, status });

/** Keyed by routeKey() as ADMIN_ROUTES: adminOperations refuses a route without its entry, and an entry without its route. */
export function adminDocs(config: GatewayConfig): Record<string, AdminDoc> {
  return {
    'POST /v1/admin/api-keys': {
      summary: 'Create an admin API key (its key is shown once)',
      description:
        'The new key holds no ACL the calling key and its owner do not both hold (403 MISSING_ACL), and never outlives the calling key: ' +
        'a calling key that expires must send `expires_in_days`, at most the whole days it has left counted up (400 at `expires_in_days` ' +
        "otherwise), and the new key is cut at the calling key's expiry (`expires_at` says when).",
      body: createApiKeySchema,
      requestExample: { name: 'ops', acls: ['audit_log:view'], expires_in_days: 7 },
      success: [
        presented('The key (shown only now) and its metadata.', createdApiKeyResponseSchema, ex.CREATED_API_KEY),
      ],
    },
    'GET /v1/admin/api-keys': {
      summary: "List the caller's admin API keys",
      success: [presented('Key metadata, no key material.', z.array(apiKeyResponseSchema), [ex.API_KEY])],
    },
    'DELETE /v1/admin/api-keys/:keyId': {
      summary: 'Revoke an admin API key',
      success: [presented('Revoked.', successResponseSchema, { success: true })],
      errors: ['ADMIN_API_KEY_NOT_FOUND'],
    },
    'POST /v1/admin/archives/user': {
      summary: "Export a user's data",
      body: triggerUserSchema,
      requestExample: { user_id: ex.IDS.user },
      success: [presented('The archive, queued.', archiveResponseSchema, ex.QUEUED_ARCHIVE)],
      errors: ['UNKNOWN_USER'],
    },
    'POST /v1/admin/archives/guild': {
      summary: "Export a guild's data",
      body: triggerGuildSchema,
      requestExample: { guild_id: ex.IDS.guild },
      success: [
        presented('The archive, queued.', archiveResponseSchema, {
          ...ex.QUEUED_ARCHIVE,
          subject_type: 'guild',
          subject_id: ex.IDS.guild,
        }),
      ],
      errors: ['UNKNOWN_GUILD'],
    },
    'POST /v1/admin/archives/list': {
      summary: 'List archives',
      body: listArchivesSchema,
      requestExample: { subject_type: 'user', limit: 20 },
      success: [
        presented('A page of archives, newest first.', archiveListResponseSchema, {
          archives: [ex.ARCHIVE],
          next_cursor: null,
        }),
      ],
    },
    'GET /v1/admin/archives/:subjectType/:subjectId/:archiveId': {
      summary: "An archive's metadata",
      params: archivePathSchema,
      success: [presented('The archive, or null.', archiveLookupResponseSchema, { archive: ex.ARCHIVE })],
    },
    'GET /v1/admin/archives/:subjectType/:subjectId/:archiveId/download': {
      summary: 'A time-limited download link of an archive',
      params: archivePathSchema,
      success: [
        presented('A presigned link and when it stops working.', archiveDownloadResponseSchema, {
          downloadUrl: 'https://s3.example.com/archives/user-1297040301409234952.zip?X-Amz-Signature=…',
          expiresAt: ex.TIMES.later,
        }),
      ],
      errors: ['UNKNOWN_HARVEST', 'HARVEST_NOT_READY', 'HARVEST_FAILED', 'HARVEST_EXPIRED'],
    },
    'POST /v1/admin/assets/purge': {
      summary: "Purge emoji and sticker assets, or a whole guild's",
      body: purgeRequestSchema,
      requestExample: { ids: ['1297040301409234960'] },
      success: [
        {
          status: 200,
          description: 'The outcome, per item.',
          schema: assetPurgeResultSchema,
          example: ex.ASSET_PURGE_RESULT,
        },
        running(assetPurgeAcceptedSchema, purgeStatus('running')),
      ],
      errors: ['UNKNOWN_GUILD'],
    },
    'GET /v1/admin/assets/purges/:purgeId': {
      summary: 'The status (and outcome) of an asset purge',
      success: [
        presented('`purge_id`, `status`, and the outcome once completed.', assetPurgeStatusSchema, {
          ...purgeStatus('completed'),
          ...ex.ASSET_PURGE_RESULT,
        }),
      ],
      errors: ['UNKNOWN_ASSET_PURGE'],
    },
    'POST /v1/admin/audit-logs': {
      summary: 'List audit log entries',
      body: listAuditLogsSchema,
      requestExample: { target_type: 'ip', from: '2026-11-01', limit: 50 },
      success: [
        presented(`Entries, newest first, and the total: ${TOTAL_NOTE}`, auditLogListResponseSchema, AUDIT_PAGE),
      ],
    },
    'POST /v1/admin/audit-logs/search': {
      summary: 'Search audit log entries',
      body: searchAuditLogsSchema,
      requestExample: { query: 'credential stuffing', sort_by: 'relevance' },
      success: [
        presented(
          `Matching entries and the total: ${TOTAL_NOTE} By relevance: entries the query matches in the action and target first, then those it needs the reason for, then the metadata; newest first within each (sort_order applies to createdAt only).`,
          auditLogListResponseSchema,
          AUDIT_PAGE,
        ),
      ],
    },
    ...banDocs('email'),
    ...banDocs('ip'),
    ...banDocs('phone'),
    'POST /v1/admin/bulk/add-guild-members': {
      summary: 'Add users to a guild',
      body: bulkAddSchema(config.BULK_MAX_USER_IDS),
      requestExample: { guild_id: ex.IDS.guild, user_ids: ex.BULK_RESULT.successful },
      success: [
        {
          status: 200,
          description: 'The outcome, per user.',
          schema: bulkOperationResultSchema,
          example: ex.BULK_RESULT,
        },
        running(bulkOperationAcceptedSchema, bulkStatus('queued')),
      ],
    },
    'GET /v1/admin/bulk/operations/:operationId': {
      summary: 'The status (and outcome) of a bulk operation',
      success: [
        presented('`operation_id`, `status`, and the outcome once completed.', bulkOperationStatusSchema, {
          ...bulkStatus('completed'),
          ...ex.BULK_RESULT,
        }),
      ],
      errors: ['UNKNOWN_BULK_OPERATION'],
    },
    'GET /v1/admin/jobs/failed': {
      summary: 'Failed jobs of every queue',
      query: listFailedJobsQuery,
      success: [
        presented('Failed jobs, newest failure first.', failedJobListResponseSchema, {
          jobs: [ex.FAILED_JOB],
          total: 1,
        }),
      ],
    },
    'POST /v1/admin/jobs/retry': {
      summary: 'Retry failed jobs',
      body: retryJobsBody,
      requestExample: { jobs: [{ queue: ex.FAILED_JOB.queue, id: ex.FAILED_JOB.id }] },
      success: [
        presented('Jobs back to waiting, and those that could not be.', jobRetryResponseSchema, {
          retried: [{ queue: ex.FAILED_JOB.queue, id: ex.FAILED_JOB.id }],
          errors: [],
        }),
      ],
    },
    'POST /v1/admin/webhooks/list': {
      summary: "A guild's or a channel's webhooks (no token, no secret)",
      body: listWebhooksSchema,
      requestExample: { guild_id: ex.IDS.guild },
      success: [
        presented('`webhooks`, oldest first.', adminWebhookListResponseSchema, { webhooks: [ex.ADMIN_WEBHOOK] }),
      ],
    },
    'GET /v1/admin/webhooks/:webhookId': {
      summary: 'A webhook (no token, no secret)',
      success: [presented('The webhook.', adminWebhookResponseSchema, ex.ADMIN_WEBHOOK)],
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
      requestExample: {},
      success: [
        presented('Where the dashboard is; the session is the `Set-Cookie` header.', dashboardSessionResponseSchema, {
          dashboard_url: 'https://switchboard.example.com/v1/admin/queues/',
          expires_at: ex.TIMES.later,
        }),
      ],
    },
  };
}
