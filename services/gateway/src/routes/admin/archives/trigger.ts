import type { RequestHandler } from 'express';
import { ARCHIVE_EXPORT_JOB, type ArchiveSubjectType, type ErrorCode } from '@switchboard/contracts';
import {
  failArchive,
  findGuildById,
  findUserById,
  insertArchive,
  withTransaction,
  type Queryable,
} from '@switchboard/db';
import { ApiError, validate } from '@switchboard/http';
import { actingKey, adminPrincipal, auditReason, recordAudit } from '../../../admin-auth/index.ts';
import type { GatewayDeps } from '../../../deps.ts';
import { enqueueForRow } from '@switchboard/admin-operations';
import { presentArchive } from './presenter.ts';
import { triggerGuildSchema, triggerUserSchema } from './schemas.ts';

/** Audit vocabulary of archive triggers (docs/decisions.md#every-admin-write-is-audited). */
const TARGET_TYPE = 'archive';

interface SubjectKind {
  /** The subject's id from the validated body (400 when malformed). */
  parse(body: unknown): string;
  exists(db: Queryable, id: string): Promise<boolean>;
  unknown: ErrorCode;
  action: string;
}

const SUBJECTS: Record<ArchiveSubjectType, SubjectKind> = {
  user: {
    parse: (body) => validate(triggerUserSchema, body).user_id,
    exists: async (db, id) => (await findUserById(db, id)) !== null,
    unknown: 'UNKNOWN_USER',
    action: 'trigger_user_archive',
  },
  guild: {
    parse: (body) => validate(triggerGuildSchema, body).guild_id,
    exists: async (db, id) => (await findGuildById(db, id)) !== null,
    unknown: 'UNKNOWN_GUILD',
    action: 'trigger_guild_archive',
  },
};

/**
 * POST /admin/archives/user and /guild (docs/decisions.md#fluxer-archive-routes,
 * #archive-triggers-and-download-links): the subject must exist (404); the row and its audit entry
 * commit together, then the export job is enqueued. 200 with the new record (`status: queued`,
 * `progress_step: "Queued"`).
 */
export function triggerArchive(deps: GatewayDeps, subjectType: ArchiveSubjectType): RequestHandler {
  const { pool, ids, config } = deps;
  const subject = SUBJECTS[subjectType];
  return async (req, res) => {
    const subjectId = subject.parse(req.body);
    if (!(await subject.exists(pool, subjectId))) throw new ApiError(subject.unknown);
    const principal = adminPrincipal(res);
    const { adminUserId } = principal;
    const archive = await withTransaction(pool, async (client) => {
      const inserted = await insertArchive(client, {
        id: ids.next(),
        subjectType,
        subjectId,
        requestedBy: adminUserId,
        retentionDays: config.ARCHIVE_RETENTION_DAYS,
      });
      await recordAudit(client, ids, {
        ...actingKey(principal),
        targetType: TARGET_TYPE,
        targetId: inserted.id,
        action: subject.action,
        reason: auditReason(req),
        metadata: { subject_type: subjectType, subject_id: subjectId },
      });
      return inserted;
    });
    await enqueueForRow(
      () => deps.producer.enqueue(ARCHIVE_EXPORT_JOB, { archiveId: archive.id }),
      (message) => failArchive(pool, archive.id, message),
    );
    res.json(presentArchive(archive));
  };
}
