import type { Request, RequestHandler, Response } from 'express';
import { findArchive, listArchives, type Archive, type Pool } from '@switchboard/db';
import { ApiError, validate } from '@switchboard/http';
import { actingKey, adminPrincipal, auditReason, recordAudit } from '../../../admin-auth/index.ts';
import type { GatewayDeps } from '../../../deps.ts';
import type { AdminHandlers } from '../handlers.ts';
import { requireArchiveView } from './access.ts';
import { archiveFilename, presentArchiveDownload, presentArchiveList, presentArchiveLookup } from './presenter.ts';
import { archivePathSchema, listArchivesSchema } from './schemas.ts';
import { triggerArchive } from './trigger.ts';

/**
 * POST /admin/archives/list (docs/decisions.md#fluxer-archive-routes, #archives). The requested type is gated by
 * the caller's ACLs, and every filter narrows within it: `requested_by` never brings in
 * archives of a type the caller may not see. Newest first; `next_cursor` (the last id) when
 * the page is full, passed back as `before` for the next one.
 */
function list({ pool }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const body = validate(listArchivesSchema, req.body);
    requireArchiveView(adminPrincipal(res), body.subject_type);
    if (body.subject_type === 'all' && body.subject_id !== undefined) {
      // Fluxer answers 500 here (docs/decisions.md#fluxer-archive-routes); a subject id names a subject of one type.
      throw new ApiError('INVALID_FORM_BODY', {
        errors: [
          { path: 'subject_id', message: 'subject_id needs subject_type "user" or "guild".', code: 'INVALID_VALUE' },
        ],
      });
    }
    const archives = await listArchives(pool, {
      subjectType: body.subject_type === 'all' ? null : body.subject_type,
      subjectId: body.subject_id,
      requestedBy: body.requested_by,
      includeExpired: body.include_expired,
      limit: body.limit,
      before: body.before,
    });
    res.json(presentArchiveList(archives, archives.length === body.limit));
  };
}

/**
 * The archive a path names (400 for a malformed path, 403 for a type the caller may not see),
 * or null when it does not exist or belongs to another subject than the path says.
 */
async function archiveAtPath(pool: Pool, req: Request, res: Response): Promise<Archive | null> {
  const path = validate(archivePathSchema, req.params);
  requireArchiveView(adminPrincipal(res), path.subjectType);
  const archive = await findArchive(pool, path.archiveId);
  const matches = archive !== null && archive.subjectType === path.subjectType && archive.subjectId === path.subjectId;
  return matches ? archive : null;
}

/**
 * GET /admin/archives/{type}/{subject}/{id} (docs/decisions.md#fluxer-archive-routes): a missing
 * one is `200 {archive: null}`.
 */
function getOne({ pool }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const archive = await archiveAtPath(pool, req, res);
    res.json(presentArchiveLookup(archive));
  };
}

/**
 * The object key of an archive that can be downloaded now, else why not, in the order of
 * docs/decisions.md#archive-triggers-and-download-links: still being built, failed, past its retention.
 */
function downloadableKey(archive: Archive, now: number): string {
  if (archive.status === 'queued' || archive.status === 'running') throw new ApiError('HARVEST_NOT_READY');
  if (archive.status === 'failed') throw new ApiError('HARVEST_FAILED');
  if (archive.status === 'expired' || archive.expiresAt.getTime() <= now) throw new ApiError('HARVEST_EXPIRED');
  // A completed row always has its key (a table constraint); without one there is nothing to fetch.
  if (archive.storageKey === null) throw new ApiError('HARVEST_NOT_READY');
  return archive.storageKey;
}

/**
 * GET …/download (docs/decisions.md#fluxer-archive-routes, #archive-triggers-and-download-links): a
 * fresh presigned GET of the ZIP, saved as an attachment, living ARCHIVE_LINK_TTL_SECONDS; minted
 * per request and never stored. The body is camelCase, as the panels read it. Handing out a user's
 * data is audited (`download_archive`): the entry is written before the link leaves, so no link
 * goes out unrecorded.
 */
function download({ pool, storage, config, ids }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const archive = await archiveAtPath(pool, req, res);
    if (archive === null) throw new ApiError('UNKNOWN_HARVEST');
    const link = await storage.presignDownload(downloadableKey(archive, Date.now()), {
      filename: archiveFilename(archive),
      expiresInSeconds: config.ARCHIVE_LINK_TTL_SECONDS,
    });
    await recordAudit(pool, ids, {
      ...actingKey(adminPrincipal(res)),
      targetType: 'archive',
      targetId: archive.id,
      action: 'download_archive',
      reason: auditReason(req),
      metadata: {
        subject_type: archive.subjectType,
        subject_id: archive.subjectId,
        link_expires_at: link.expiresAt.toISOString(),
      },
    });
    res.json(presentArchiveDownload(link));
  };
}

export function archiveHandlers(deps: GatewayDeps): AdminHandlers {
  return {
    'POST /v1/admin/archives/user': triggerArchive(deps, 'user'),
    'POST /v1/admin/archives/guild': triggerArchive(deps, 'guild'),
    'POST /v1/admin/archives/list': list(deps),
    'GET /v1/admin/archives/:subjectType/:subjectId/:archiveId': getOne(deps),
    'GET /v1/admin/archives/:subjectType/:subjectId/:archiveId/download': download(deps),
  };
}
