// The asset-purges worker process: `node services/asset-purge-worker/src/main.ts`.
import { runWorkerService } from '@switchboard/runtime';
import { assetPurgeWorkerConfigSchema } from './config.ts';
import { assetPurgeWorkerSetup, ASSET_PURGE_WORKER_JOBS, ASSET_PURGE_WORKER_QUEUE } from './setup.ts';

await runWorkerService({
  name: 'asset-purge-worker',
  queue: ASSET_PURGE_WORKER_QUEUE,
  contracts: ASSET_PURGE_WORKER_JOBS,
  handlers: assetPurgeWorkerSetup,
  config: assetPurgeWorkerConfigSchema,
});
