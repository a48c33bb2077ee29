// The bulk-operations worker process: `node services/bulk-worker/src/main.ts`.
import { runWorkerService } from '@switchboard/runtime';
import { bulkWorkerConfigSchema } from './config.ts';
import { bulkWorkerSetup, BULK_WORKER_JOBS, BULK_WORKER_QUEUE } from './setup.ts';

await runWorkerService({
  name: 'bulk-worker',
  queue: BULK_WORKER_QUEUE,
  contracts: BULK_WORKER_JOBS,
  handlers: bulkWorkerSetup,
  config: bulkWorkerConfigSchema,
});
