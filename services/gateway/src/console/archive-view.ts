// What the archive screen shows of an archive record, shared by the page and the status route.
import type { ArchiveResponse } from '@switchboard/contracts';

const STATUS_LABELS: Record<ArchiveResponse['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Ready',
  failed: 'Failed',
  expired: 'Expired',
};

export const statusLabel = (status: ArchiveResponse['status']): string => STATUS_LABELS[status];

/** The statuses that still change: the page's script polls these. */
export const LIVE_STATUSES: ReadonlySet<string> = new Set(['queued', 'running']);

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

/** "12.3 MiB" from the API's decimal byte count; null while there is no file. */
export function sizeText(bytes: string | null): string | null {
  if (bytes === null) return null;
  let size = Number(bytes);
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit++;
  }
  return unit === 0 ? `${size} bytes` : `${size.toFixed(1)} ${UNITS[unit]}`;
}

/** The console path of an archive (its subject's type and id, then its id), for status and download. */
export function archivePath(
  base: string,
  archive: Pick<ArchiveResponse, 'subject_type' | 'subject_id' | 'archive_id'>,
) {
  return `${base}/archives/${archive.subject_type}/${archive.subject_id}/${archive.archive_id}`;
}

/** The fields a row shows, as text: the status route answers with these and the script fills them in. */
export interface ArchiveView {
  status: ArchiveResponse['status'];
  status_label: string;
  progress_percent: number;
  progress_step: string | null;
  size: string;
  error: string;
  download_url: string | null;
}

export function archiveView(base: string, archive: ArchiveResponse): ArchiveView {
  return {
    status: archive.status,
    status_label: statusLabel(archive.status),
    progress_percent: archive.progress_percent,
    progress_step: archive.progress_step,
    size: sizeText(archive.file_size) ?? '—',
    error: archive.status === 'failed' ? (archive.error_message ?? 'No reason recorded') : '',
    download_url: archive.status === 'completed' ? `${archivePath(base, archive)}/download` : null,
  };
}
