export { bulkWorkerConfigSchema, type BulkWorkerConfig } from './config.ts';
export { bulkWorkerSetup, BULK_WORKER_JOBS, BULK_WORKER_QUEUE } from './setup.ts';
export { addMembersRunner, type AddMembersDeps } from './add-members.ts';
