// The bulk-operations worker process: `node services/bulk-worker/src/main.ts`.
import { startTracing } from '@switchboard/telemetry';

// Before the rest of the worker is imported: tracing patches the modules it uses
// (docs/decisions.md#request-ids-and-traces-across-the-queue).
await startTracing('bulk-worker');
const { runWorkerService } = await import('@switchboard/runtime');
const { bulkWorkerConfigSchema } = await import('./config.ts');
const { bulkWorkerSetup, BULK_WORKER_JOBS, BULK_WORKER_QUEUE } = await import('./setup.ts');
await runWorkerService({
  name: 'bulk-worker',
  queue: BULK_WORKER_QUEUE,
  contracts: BULK_WORKER_JOBS,
  handlers: bulkWorkerSetup,
  config: bulkWorkerConfigSchema,
});
