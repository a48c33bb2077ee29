import { z } from 'zod';
import { ARCHIVE_STATUSES, ARCHIVE_SUBJECT_TYPES } from './admin-jobs.ts';
import { apiSchema } from './api-schemas.ts';
import { QUEUES, type QueueName } from './jobs.ts';

/**
 * Bodies the admin routes answer with: each route's presenter returns the output type of its
 * schema here, and the gateway's OpenAPI document describes the route from the same schema.
 */

const timestamp = z.iso.datetime();

/** `{"success": true}`, as Fluxer answers a deletion. */
export const successResponseSchema = apiSchema('Success', z.object({ success: z.literal(true) }));

// ---- Archives (docs/decisions.md#fluxer-archive-record) ----

export const archiveResponseSchema = apiSchema(
  'Archive',
  z.object({
    archive_id: z.string(),
    subject_type: z.enum(ARCHIVE_SUBJECT_TYPES),
    subject_id: z.string(),
    requested_by: z.string(),
    status: z.enum(ARCHIVE_STATUSES),
    requested_at: timestamp,
    started_at: timestamp.nullable(),
    completed_at: timestamp.nullable(),
    failed_at: timestamp.nullable(),
    /** Bytes, as a decimal string (a bigint column). */
    file_size: z.string().nullable(),
    progress_percent: z.number().int(),
    progress_step: z.string().nullable(),
    error_message: z.string().nullable(),
    /** Null here: download links are minted per request, never stored (a string in Fluxer's schema). */
    download_url_expires_at: timestamp.nullable(),
    expires_at: timestamp,
  }),
  'An export of a user or a guild: its state while it is built, then its retention.',
);
export type ArchiveResponse = z.output<typeof archiveResponseSchema>;

export const archiveListResponseSchema = apiSchema(
  'ArchiveList',
  z.object({ archives: z.array(archiveResponseSchema), next_cursor: z.string().nullable() }),
);
export const archiveLookupResponseSchema = apiSchema(
  'ArchiveLookup',
  z.object({ archive: archiveResponseSchema.nullable() }),
);
/** camelCase, as the admin panels read it (docs/decisions.md#fluxer-archive-routes). */
export const archiveDownloadResponseSchema = apiSchema(
  'ArchiveDownload',
  z.object({ downloadUrl: z.string(), expiresAt: timestamp }),
);

// ---- Bans (docs/decisions.md#bans) ----

export const banCheckResponseSchema = apiSchema(
  'BanCheck',
  z.discriminatedUnion('banned', [
    z.object({ banned: z.literal(false) }),
    z.object({
      banned: z.literal(true),
      reason: z.string().nullable(),
      expires_at: timestamp.nullable(),
      created_at: timestamp,
      /** The stored value or network that matched. */
      matched: z.string(),
    }),
  ]),
  'Whether the value is banned; the ban when it is.',
);
export type BanCheckResponse = z.output<typeof banCheckResponseSchema>;

const banFields = {
  reason: z.string().nullable(),
  expires_at: timestamp.nullable(),
  created_by: z.string().nullable(),
  created_at: timestamp,
};

export const emailBanResponseSchema = apiSchema('EmailBan', z.object({ email: z.string(), ...banFields }));
export const phoneBanResponseSchema = apiSchema('PhoneBan', z.object({ phone: z.string(), ...banFields }));
export const ipBanResponseSchema = apiSchema(
  'IpBan',
  z.object({ ip: z.string(), reverse_dns: z.string().nullable(), ...banFields }),
);
export type IpBanResponse = z.output<typeof ipBanResponseSchema>;

/** A page of value bans: whole bans, or (`simple: true`) the bare values, as Fluxer lists them. */
function valueBanPage<T extends z.ZodType>(id: string, ban: T) {
  return apiSchema(id, z.object({ bans: z.array(z.union([ban, z.string()])), next_cursor: z.string().nullable() }));
}
export const emailBanListResponseSchema = valueBanPage('EmailBanList', emailBanResponseSchema);
export const phoneBanListResponseSchema = valueBanPage('PhoneBanList', phoneBanResponseSchema);
export const ipBanListResponseSchema = apiSchema(
  'IpBanList',
  z.object({ bans: z.array(ipBanResponseSchema), next_cursor: z.string().nullable() }),
);

// ---- Audit logs (docs/decisions.md#fluxer-audit-entries) ----

export const auditLogEntrySchema = apiSchema(
  'AuditLogEntry',
  z.object({
    log_id: z.string(),
    admin_user_id: z.string(),
    /** Which of the admin's keys acted; null for entries older than that record. */
    api_key_id: z.string().nullable(),
    target_type: z.string(),
    target_id: z.string(),
    action: z.string(),
    audit_log_reason: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp,
  }),
);
export type AuditLogEntry = z.output<typeof auditLogEntrySchema>;

export const auditLogListResponseSchema = apiSchema(
  'AuditLogList',
  z.object({
    logs: z.array(auditLogEntrySchema),
    /** Exact when `total_is_exact`; beyond `exactTotalMax` matches an estimate, never below offset + page. */
    total: z.number().int().nonnegative(),
    total_is_exact: z.boolean(),
  }),
);

// ---- Failed jobs (docs/decisions.md#failed-jobs) ----

const queueName = z.enum(Object.values(QUEUES) as [QueueName, ...QueueName[]]);

export const failedJobSchema = apiSchema(
  'FailedJob',
  z.object({
    queue: queueName,
    id: z.string(),
    name: z.string(),
    attempts: z.number().int().nonnegative(),
    last_error: z.string(),
    failed_at: timestamp,
  }),
);
export const failedJobListResponseSchema = apiSchema(
  'FailedJobList',
  z.object({ jobs: z.array(failedJobSchema), total: z.number().int().nonnegative() }),
);

const jobRef = { queue: queueName, id: z.string() };
export const jobRetryResponseSchema = apiSchema(
  'JobRetryResult',
  z.object({
    retried: z.array(z.object(jobRef)),
    errors: z.array(z.object({ ...jobRef, error: z.enum(['UNKNOWN_JOB', 'NOT_FAILED']) })),
  }),
);
export type JobRetryResponse = z.output<typeof jobRetryResponseSchema>;

// ---- Queue dashboard ----

export const dashboardSessionResponseSchema = apiSchema(
  'DashboardSession',
  z.object({ dashboard_url: z.string(), expires_at: timestamp }),
  'The session itself is the HttpOnly cookie set with this answer.',
);
