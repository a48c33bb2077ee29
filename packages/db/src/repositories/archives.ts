import type { Queryable } from '../pool.ts';

import type { ArchiveStatus, ArchiveSubjectType } from '@switchboard/contracts';

/** An archive export (docs/decisions.md#fluxer-archive-record plus `status`, #archives): the job's state. */
export interface Archive {
  id: string;
  subjectType: ArchiveSubjectType;
  subjectId: string;
  requestedBy: string;
  status: ArchiveStatus;
  progressPercent: number;
  progressStep: string | null;
  storageKey: string | null;
  fileSize: string | null;
  requestedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  failedAt: Date | null;
  error: string | null;
  expiresAt: Date;
}

const COLUMNS = `id::text, subject_type AS "subjectType", subject_id::text AS "subjectId", requested_by::text AS "requestedBy",
  status, progress_percent AS "progressPercent", progress_step AS "progressStep", storage_key AS "storageKey",
  file_size::text AS "fileSize", requested_at AS "requestedAt", started_at AS "startedAt", completed_at AS "completedAt",
  failed_at AS "failedAt", error, expires_at AS "expiresAt"`;

export interface NewArchive {
  id: string;
  subjectType: ArchiveSubjectType;
  subjectId: string;
  requestedBy: string;
  retentionDays: number;
}

export async function insertArchive(db: Queryable, archive: NewArchive): Promise<Archive> {
  const { rows } = await db.query<Archive>(
    `INSERT INTO archives (id, subject_type, subject_id, requested_by, progress_step, expires_at)
     VALUES ($1, $2, $3, $4, 'Queued', now() + make_interval(days => $5)) RETURNING ${COLUMNS}`,
    [archive.id, archive.subjectType, archive.subjectId, archive.requestedBy, archive.retentionDays],
  );
  return rows[0]!;
}

export async function findArchive(db: Queryable, id: string): Promise<Archive | null> {
  const { rows } = await db.query<Archive>(`SELECT ${COLUMNS} FROM archives WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export interface ArchiveListQuery {
  /** null: both types. */
  subjectType: ArchiveSubjectType | null;
  subjectId?: string | undefined;
  requestedBy?: string | undefined;
  includeExpired: boolean;
  limit: number;
  /** Keyset cursor: archives with a smaller id (older) than this. */
  before?: string | undefined;
}

/** Newest first; expired ones (by status or by date) only when asked for. */
export async function listArchives(db: Queryable, query: ArchiveListQuery): Promise<Archive[]> {
  const { rows } = await db.query<Archive>(
    `SELECT ${COLUMNS} FROM archives
     WHERE ($1::text IS NULL OR subject_type = $1)
       AND ($2::bigint IS NULL OR subject_id = $2)
       AND ($3::bigint IS NULL OR requested_by = $3)
       AND ($4 OR (status <> 'expired' AND expires_at > now()))
       AND ($5::bigint IS NULL OR id < $5)
     ORDER BY id DESC LIMIT $6`,
    [
      query.subjectType,
      query.subjectId ?? null,
      query.requestedBy ?? null,
      query.includeExpired,
      query.before ?? null,
      query.limit,
    ],
  );
  return rows;
}

/**
 * queued|running → running for an attempt: a retry starts clean (no failure left from an
 * earlier attempt, progress from zero). Null when the archive is finished (completed, failed
 * for good, expired) or gone: there is nothing to build.
 */
export async function startArchive(db: Queryable, id: string, step: string): Promise<Archive | null> {
  const { rows } = await db.query<Archive>(
    `UPDATE archives SET status = 'running', started_at = coalesce(started_at, now()), failed_at = NULL, error = NULL,
       progress_percent = 0, progress_step = $2
     WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${COLUMNS}`,
    [id, step],
  );
  return rows[0] ?? null;
}

/** Progress of a running archive; a no-op once it is no longer running. */
export async function recordArchiveProgress(db: Queryable, id: string, percent: number, step: string): Promise<void> {
  await db.query(`UPDATE archives SET progress_percent = $2, progress_step = $3 WHERE id = $1 AND status = 'running'`, [
    id,
    Math.max(0, Math.min(100, Math.round(percent))),
    step,
  ]);
}

export async function completeArchive(
  db: Queryable,
  id: string,
  storageKey: string,
  fileSize: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE archives SET status = 'completed', completed_at = now(), storage_key = $2, file_size = $3, content_type = 'application/zip',
       progress_percent = 100, progress_step = 'Completed'
     WHERE id = $1 AND status = 'running'`,
    [id, storageKey, fileSize],
  );
  return rowCount === 1;
}

/** The last attempt failed: `failed` with a short error and the step "Failed" (progress kept). */
export async function failArchive(db: Queryable, id: string, error: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE archives SET status = 'failed', failed_at = now(), error = left($2, 2000), progress_step = 'Failed'
     WHERE id = $1 AND status IN ('queued', 'running')`,
    [id, error],
  );
  return rowCount === 1;
}

/**
 * Completed archives past their retention, oldest first, claimed as `expired` in the same
 * statement (so two replicas never take the same one); their keys, to delete.
 */
export async function expireArchives(
  db: Queryable,
  limit: number,
): Promise<Array<{ id: string; storageKey: string | null }>> {
  const { rows } = await db.query<{ id: string; storageKey: string | null }>(
    `UPDATE archives SET status = 'expired'
     WHERE id IN (
       SELECT id FROM archives WHERE status IN ('completed', 'failed', 'queued') AND expires_at <= now()
       ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED
     )
     RETURNING id::text, storage_key AS "storageKey"`,
    [limit],
  );
  return rows;
}
