import { z } from 'zod';
import { apiSchema } from './api-schemas.ts';
import { defineJob, QUEUES, type QueueName } from './jobs.ts';
import { snowflakeSchema } from './primitives.ts';

/**
 * The admin operations that run on workers (docs/decisions.md#asset-purges, #bulk-add-outcomes,
 * #job-ids). A payload carries only the operation's row id: the validated request, the state and
 * the outcome live in that row, and the BullMQ job id is the row id, so enqueueing the same
 * operation twice adds one job. Renaming a job strands waiting jobs.
 */
const operationPayload = z.object({ operationId: snowflakeSchema });
export type OperationPayload = z.infer<typeof operationPayload>;

/** Deletes emoji/sticker assets by id, or every asset of a guild (`asset_purges` row). */
export const ASSET_PURGE_JOB = defineJob({
  queue: QUEUES.assetPurges,
  name: 'asset-purge',
  payload: operationPayload,
  jobId: (payload) => payload.operationId,
});

/** Adds users to a guild in set-based statements (`bulk_operations` row). */
export const BULK_ADD_GUILD_MEMBERS_JOB = defineJob({
  queue: QUEUES.bulkOperations,
  name: 'bulk-add-guild-members',
  payload: operationPayload,
  jobId: (payload) => payload.operationId,
});

/** The state of an operation's row; the API reads it, not Redis. */
export const OPERATION_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/**
 * The 202 of a request whose operation outlived its wait (docs/decisions.md#operation-rows-and-status-routes):
 * the id its status route takes, and that it is still queued or running.
 */
function operationAcceptedSchema<K extends string>(idField: K) {
  return z.object({ [idField]: z.string(), status: z.enum(['queued', 'running']) } as Record<K, z.ZodString> & {
    status: z.ZodEnum<{ queued: 'queued'; running: 'running' }>;
  });
}

/** What an operation's status route answers: the 202 body, the outcome once completed, or `error` once failed. */
function operationStatusSchema<K extends string, R extends z.ZodObject>(
  idField: K,
  accepted: ReturnType<typeof operationAcceptedSchema<K>>,
  result: R,
) {
  return z.discriminatedUnion('status', [
    accepted,
    result.extend({ [idField]: z.string(), status: z.literal('completed') }),
    z.object({ [idField]: z.string(), status: z.literal('failed'), error: z.string().nullable() }),
  ]);
}

// ---- Asset purge (docs/decisions.md#fluxer-asset-purge-by-id, #asset-purges) ----

/** One purged item, as Fluxer reports it (`guild_id` null for an id found in no table). */
export const purgedAssetSchema = z.object({
  id: z.string(),
  asset_type: z.string(),
  found_in_db: z.boolean(),
  guild_id: z.string().nullable(),
});
export type PurgedAsset = z.infer<typeof purgedAssetSchema>;

export const itemErrorSchema = z.object({ id: z.string(), error: z.string() });
export type ItemError = z.infer<typeof itemErrorSchema>;

/** What the worker stores and the API answers: per item, processed or failed. */
export const assetPurgeResultSchema = apiSchema(
  'AssetPurgeResult',
  z.object({
    processed: z.array(purgedAssetSchema),
    errors: z.array(itemErrorSchema),
    /** Objects deleted in (or already gone from) the bucket. */
    deleted_objects: z.number().int().nonnegative(),
  }),
);
export type AssetPurgeResult = z.infer<typeof assetPurgeResultSchema>;
export const assetPurgeAcceptedSchema = apiSchema('AssetPurgeAccepted', operationAcceptedSchema('purge_id'));
export const assetPurgeStatusSchema = apiSchema(
  'AssetPurgeStatus',
  operationStatusSchema('purge_id', assetPurgeAcceptedSchema, assetPurgeResultSchema),
);

/** The request as stored in the row: emoji/sticker ids, or a whole guild. */
export const assetPurgeRequestSchema = z.union([
  z.object({ ids: z.array(z.string()) }),
  z.object({ guild_id: z.string() }),
]);
export type AssetPurgeRequest = z.infer<typeof assetPurgeRequestSchema>;

// ---- Bulk add guild members (docs/decisions.md#fluxer-bulk-add, #bulk-add-outcomes) ----

export const BULK_ADD_ERRORS = ['UNKNOWN_USER', 'UNKNOWN_GUILD', 'MAX_GUILDS', 'MAX_GUILD_MEMBERS'] as const;

export const bulkOperationResultSchema = apiSchema(
  'BulkOperationResult',
  z.object({
    successful: z.array(z.string()),
    failed: z.array(z.object({ id: z.string(), error: z.enum(BULK_ADD_ERRORS) })),
  }),
);
export type BulkOperationResult = z.infer<typeof bulkOperationResultSchema>;
export const bulkOperationAcceptedSchema = apiSchema('BulkOperationAccepted', operationAcceptedSchema('operation_id'));
export const bulkOperationStatusSchema = apiSchema(
  'BulkOperationStatus',
  operationStatusSchema('operation_id', bulkOperationAcceptedSchema, bulkOperationResultSchema),
);

export const bulkAddRequestSchema = z.object({ guild_id: z.string(), user_ids: z.array(z.string()) });
export type BulkAddRequest = z.infer<typeof bulkAddRequestSchema>;

/** The contracts of jobs whose payload is an operation row's id. */
export type OperationJobContract = typeof ASSET_PURGE_JOB | typeof BULK_ADD_GUILD_MEMBERS_JOB;

// ---- Archive exports (docs/decisions.md#fluxer-archive-routes, #archives) ----

/** Builds one archive (`archives` row): a ZIP streamed into the bucket. */
export const ARCHIVE_EXPORT_JOB = defineJob({
  queue: QUEUES.archiveExports,
  name: 'archive-export',
  payload: z.object({ archiveId: snowflakeSchema }),
  jobId: (payload) => payload.archiveId,
});

/** Deletes archives past their retention and marks them expired (a job scheduler, one run per tick). */
export const ARCHIVE_RETENTION_JOB = defineJob({
  queue: QUEUES.archiveExports,
  name: 'archive-retention',
  payload: z.object({}),
  defaults: { attempts: 1, removeOnComplete: { ageSeconds: 60 * 60, count: 100 } },
});

/**
 * Fails the rows of its queue's family left `queued` with no job: the gateway inserts the row
 * and then enqueues, and a gateway killed in between, or a failed mark after a refused enqueue,
 * leaves a row nothing will run (docs/decisions.md#queued-rows-without-a-job). One per operation
 * queue, run by a job scheduler. Renaming the job strands its schedule's jobs.
 */
const queuedRowSweepJob = <const Queue extends QueueName>(queue: Queue) =>
  defineJob({
    queue,
    name: 'queued-row-sweep',
    payload: z.object({}),
    defaults: { attempts: 1, removeOnComplete: { ageSeconds: 60 * 60, count: 100 } },
  });
export const ARCHIVE_ROW_SWEEP_JOB = queuedRowSweepJob(QUEUES.archiveExports);
export const ASSET_PURGE_ROW_SWEEP_JOB = queuedRowSweepJob(QUEUES.assetPurges);
export const BULK_ROW_SWEEP_JOB = queuedRowSweepJob(QUEUES.bulkOperations);

export const ARCHIVE_SUBJECT_TYPES = ['user', 'guild'] as const;
export type ArchiveSubjectType = (typeof ARCHIVE_SUBJECT_TYPES)[number];
export const ARCHIVE_STATUSES = ['queued', 'running', 'completed', 'failed', 'expired'] as const;
export type ArchiveStatus = (typeof ARCHIVE_STATUSES)[number];
