import type { OperationStatus } from '@switchboard/contracts';
import type { Queryable } from '@switchboard/db';

/**
 * Admin operations run by workers (asset purges, bulk operations): one row each, the job's
 * state (docs/decisions.md#jobs-and-their-rows). The row is inserted before the job is enqueued, and its status moves
 * only by conditional updates, so a retried or duplicated job cannot move it backwards.
 */
export type OperationTable = 'asset_purges' | 'bulk_operations';

/** A row as its status route and waiting gateway read it: everything but the request. */
export interface OperationState {
  id: string;
  requestedBy: string;
  requestedByKeyId: string | null;
  status: OperationStatus;
  result: unknown;
  auditLogReason: string | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

/** A row as the worker running it reads it. */
export interface Operation extends OperationState {
  request: unknown;
}

export interface NewOperation {
  id: string;
  requestedBy: string;
  /** The admin API key that requested it, for the audit entry the worker writes. */
  requestedByKeyId?: string | null;
  request: unknown;
  auditLogReason: string | null;
  /** bulk_operations only: which bulk operation. */
  kind?: 'add_guild_members';
}

const STATE_COLUMNS = `id, requested_by AS "requestedBy", requested_by_key_id::text AS "requestedByKeyId", status, result, audit_log_reason AS "auditLogReason",
  error, created_at AS "createdAt", started_at AS "startedAt", completed_at AS "completedAt"`;
const COLUMNS = `${STATE_COLUMNS}, request`;

export async function insertOperation(db: Queryable, table: OperationTable, operation: NewOperation): Promise<void> {
  const { id, requestedBy, requestedByKeyId, request, auditLogReason } = operation;
  if (table === 'bulk_operations') {
    await db.query(
      `INSERT INTO bulk_operations (id, kind, requested_by, request, audit_log_reason, requested_by_key_id) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        id,
        operation.kind ?? 'add_guild_members',
        requestedBy,
        JSON.stringify(request),
        auditLogReason,
        requestedByKeyId ?? null,
      ],
    );
  } else {
    await db.query(
      `INSERT INTO asset_purges (id, requested_by, request, audit_log_reason, requested_by_key_id) VALUES ($1, $2, $3, $4, $5)`,
      [id, requestedBy, JSON.stringify(request), auditLogReason, requestedByKeyId ?? null],
    );
  }
}

export async function findOperation(db: Queryable, table: OperationTable, id: string): Promise<OperationState | null> {
  const { rows } = await db.query<OperationState>(`SELECT ${STATE_COLUMNS} FROM ${table} WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/**
 * queued|running → running (a retry runs it again), keeping the first start time. Null when
 * the row is finished or missing: the job has nothing left to do.
 */
export async function startOperation(db: Queryable, table: OperationTable, id: string): Promise<Operation | null> {
  const { rows } = await db.query<Operation>(
    `UPDATE ${table} SET status = 'running', started_at = coalesce(started_at, now())
     WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0] ?? null;
}

/** running → completed with its result; false when it was not running (already finished). */
export async function completeOperation(
  db: Queryable,
  table: OperationTable,
  id: string,
  result: unknown,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE ${table} SET status = 'completed', result = $2, completed_at = now(), error = NULL
     WHERE id = $1 AND status IN ('queued', 'running')`,
    [id, JSON.stringify(result)],
  );
  return rowCount === 1;
}

/** queued|running → failed with a short reason (no internals); a finished row stays as it is. */
export async function failOperation(db: Queryable, table: OperationTable, id: string, error: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE ${table} SET status = 'failed', error = left($2, 2000), completed_at = now()
     WHERE id = $1 AND status IN ('queued', 'running')`,
    [id, error],
  );
  return rowCount === 1;
}
