import { env, type z } from '@switchboard/config';
import { workerConfigSchema } from '@switchboard/runtime';

/** The bulk worker's variables: a worker's, and the guild cap of a user. */
export const bulkWorkerConfigSchema = workerConfigSchema.extend({
  /** Guilds one user may be in; a bulk add past it fails that user with MAX_GUILDS (Fluxer: 100). */
  BULK_MAX_GUILDS_PER_USER: env.int(1, 100_000).default(100),
});

export type BulkWorkerConfig = z.infer<typeof bulkWorkerConfigSchema>;
