import { z } from 'zod';
import { ARCHIVE_SUBJECT_TYPES, snowflakeSchema, type RangeWithDefault } from '@switchboard/contracts';

/** Page size of POST /admin/archives/list (docs/decisions.md#fluxer-archive-routes). */
export const ARCHIVE_LIST_LIMIT: RangeWithDefault = { min: 1, max: 200, default: 50 };

/** `TriggerUserArchiveRequest` (docs/decisions.md#fluxer-archive-routes). */
export const triggerUserSchema = z.object({ user_id: snowflakeSchema });

/** `TriggerGuildArchiveRequest` (docs/decisions.md#fluxer-archive-routes). */
export const triggerGuildSchema = z.object({ guild_id: snowflakeSchema });

/**
 * `ListArchivesRequest` (docs/decisions.md#fluxer-archive-routes) plus `before`, the keyset cursor (an archive id: the
 * page holds older ones). Fluxer does not require `limit` to be an integer; a fraction is
 * rounded down.
 */
export const listArchivesSchema = z.object({
  subject_type: z.enum([...ARCHIVE_SUBJECT_TYPES, 'all']).default('all'),
  subject_id: snowflakeSchema.optional(),
  requested_by: snowflakeSchema.optional(),
  limit: z
    .number()
    .min(ARCHIVE_LIST_LIMIT.min)
    .max(ARCHIVE_LIST_LIMIT.max)
    .transform(Math.floor)
    .default(ARCHIVE_LIST_LIMIT.default),
  include_expired: z.boolean().default(false),
  before: snowflakeSchema.optional(),
});

export type ListArchivesBody = z.output<typeof listArchivesSchema>;

/**
 * `/archives/{subjectType}/{subjectId}/{archiveId}[/download]`: anything else is a 400
 * (docs/decisions.md#fluxer-archive-routes).
 */
export const archivePathSchema = z.object({
  subjectType: z.enum(ARCHIVE_SUBJECT_TYPES),
  subjectId: snowflakeSchema,
  archiveId: snowflakeSchema,
});

export type ArchivePath = z.output<typeof archivePathSchema>;
