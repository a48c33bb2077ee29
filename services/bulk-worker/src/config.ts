import { env, type z } from '@switchboard/config';
import { queuedRowSweepConfig } from '@switchboard/admin-operations';
import { workerConfigSchema } from '@switchboard/runtime';

/** The bulk worker's variables: a worker's, the sweep of its rows, and the guild cap of a user. */
export const bulkWorkerConfigSchema = workerConfigSchema.extend({
  ...queuedRowSweepConfig,
  /** Guilds one user may be in; a bulk add past it fails that user with MAX_GUILDS (Fluxer: 100). */
  BULK_MAX_GUILDS_PER_USER: env.int(1, 100_000).default(100),
});

export type BulkWorkerConfig = z.infer<typeof bulkWorkerConfigSchema>;
