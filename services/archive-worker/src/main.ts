// The archive-exports worker process: `node services/archive-worker/src/main.ts`.
import { runWorkerService } from '@switchboard/runtime';
import { archiveWorkerConfigSchema } from './config.ts';
import { archiveWorkerSetup, ARCHIVE_WORKER_JOBS, ARCHIVE_WORKER_QUEUE } from './setup.ts';

await runWorkerService({
  name: 'archive-worker',
  queue: ARCHIVE_WORKER_QUEUE,
  contracts: ARCHIVE_WORKER_JOBS,
  handlers: archiveWorkerSetup,
  config: archiveWorkerConfigSchema,
});
