export { assetPurgeWorkerSetup, ASSET_PURGE_WORKER_JOBS, ASSET_PURGE_WORKER_QUEUE } from './setup.ts';
export { purgeRunner, type PurgeDeps } from './purge.ts';
