import type { z } from 'zod';
import type {
  ArchiveResponse,
  archiveDownloadResponseSchema,
  archiveListResponseSchema,
  archiveLookupResponseSchema,
} from '@switchboard/contracts';
import type { Archive } from '@switchboard/db';

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/**
 * `AdminArchiveResponseSchema` (docs/decisions.md#fluxer-archive-record) plus `status` (#archives). Every field is
 * always present, nullable ones as null. `download_url_expires_at` is always null: links are
 * minted per download request and never stored.
 */
export function presentArchive(archive: Archive, now = new Date()): ArchiveResponse {
  // Past its retention an archive is expired for the API at once, before the sweep removes it.
  const expired = archive.status === 'completed' && archive.expiresAt.getTime() <= now.getTime();
  return {
    archive_id: archive.id,
    subject_type: archive.subjectType,
    subject_id: archive.subjectId,
    requested_by: archive.requestedBy,
    status: expired ? 'expired' : archive.status,
    requested_at: archive.requestedAt.toISOString(),
    started_at: iso(archive.startedAt),
    completed_at: iso(archive.completedAt),
    failed_at: iso(archive.failedAt),
    // A decimal string (the column is a bigint); the old panel decodes progress as an int.
    file_size: archive.fileSize,
    progress_percent: Math.round(archive.progressPercent),
    progress_step: archive.progressStep,
    error_message: archive.error,
    download_url_expires_at: null,
    expires_at: archive.expiresAt.toISOString(),
  };
}

/** A page of archives; `next_cursor` (the last id) when the page is full. */
export function presentArchiveList(archives: Archive[], full: boolean): z.output<typeof archiveListResponseSchema> {
  return {
    archives: archives.map((archive) => presentArchive(archive)),
    next_cursor: full ? archives.at(-1)!.id : null,
  };
}

/** One archive, or null when the path names none. */
export function presentArchiveLookup(archive: Archive | null): z.output<typeof archiveLookupResponseSchema> {
  return { archive: archive === null ? null : presentArchive(archive) };
}

export function presentArchiveDownload(link: {
  url: string;
  expiresAt: Date;
}): z.output<typeof archiveDownloadResponseSchema> {
  return { downloadUrl: link.url, expiresAt: link.expiresAt.toISOString() };
}

/** The name a download is saved under: unique per archive, says what it holds. */
export function archiveFilename(archive: Pick<Archive, 'id' | 'subjectType' | 'subjectId'>): string {
  return `${archive.subjectType}-${archive.subjectId}-archive-${archive.id}.zip`;
}
