import { Counter, type Registry } from '@switchboard/metrics';

export interface ArchiveMetrics {
  /** An archive's ZIP of `bytes` was uploaded whole to S3. */
  written(subjectType: 'user' | 'guild', bytes: number): void;
}

/** Bytes of finished archive uploads, by subject type (an aborted upload is not counted: S3 drops it). */
export function archiveMetrics(registry: Registry): ArchiveMetrics {
  const bytes = new Counter({
    name: 'archive_bytes_written_total',
    help: 'Bytes of archive ZIPs uploaded to S3, by subject type.',
    labelNames: ['subject_type'] as const,
    registers: [registry],
  });
  return { written: (subjectType, size) => bytes.inc({ subject_type: subjectType }, size) };
}
