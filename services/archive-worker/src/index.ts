export { archiveWorkerConfigSchema, type ArchiveWorkerConfig } from './config.ts';
export { archiveWorkerSetup, ARCHIVE_WORKER_JOBS, ARCHIVE_WORKER_QUEUE } from './setup.ts';
export { archiveRunner, type BuildDeps } from './build.ts';
export { retentionHandler } from './retention.ts';
