import { queuedRowSweepConfig } from '@switchboard/admin-operations';
import type { z } from '@switchboard/config';
import { workerConfigSchema } from '@switchboard/runtime';

/** The asset-purge worker's variables: a worker's, and the sweep of its rows. */
export const assetPurgeWorkerConfigSchema = workerConfigSchema.extend(queuedRowSweepConfig);

export type AssetPurgeWorkerConfig = z.infer<typeof assetPurgeWorkerConfigSchema>;
