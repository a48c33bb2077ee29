import { queuedRowSweepConfig } from '@switchboard/admin-operations';
import { env, type z } from '@switchboard/config';
import { workerConfigSchema } from '@switchboard/runtime';

const HOUR_MS = 60 * 60 * 1000;

/** The archive worker's variables: a worker's (S3 included), the sweep of its rows, and these. */
export const archiveWorkerConfigSchema = workerConfigSchema.extend({
  ...queuedRowSweepConfig,
  /** Archives built at once by one process: each is CPU (deflate) and one upload's parts in memory. */
  WORKER_CONCURRENCY: env.int(1, 64).default(2),
  /** Least time between two progress writes of one archive. */
  ARCHIVE_PROGRESS_INTERVAL_MS: env.int(100, 60_000).default(1000),
  /** How often archives past their retention are deleted (a job scheduler: one run per interval in all). */
  ARCHIVE_RETENTION_INTERVAL_MS: env.int(1000, 24 * HOUR_MS).default(HOUR_MS),
});

export type ArchiveWorkerConfig = z.infer<typeof archiveWorkerConfigSchema>;
