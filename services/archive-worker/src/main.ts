// The archive-exports worker process: `node services/archive-worker/src/main.ts`.
import { startTracing } from '@switchboard/telemetry';
import { collectBuffersWithTheHeap } from './heap.ts';

collectBuffersWithTheHeap();

// Before the rest of the worker is imported: tracing patches the modules it uses
// (docs/decisions.md#request-ids-and-traces-across-the-queue).
await startTracing('archive-worker');
const { runWorkerService } = await import('@switchboard/runtime');
const { archiveWorkerConfigSchema } = await import('./config.ts');
const { archiveWorkerSetup, ARCHIVE_WORKER_JOBS, ARCHIVE_WORKER_QUEUE } = await import('./setup.ts');
await runWorkerService({
  name: 'archive-worker',
  queue: ARCHIVE_WORKER_QUEUE,
  contracts: ARCHIVE_WORKER_JOBS,
  handlers: archiveWorkerSetup,
  config: archiveWorkerConfigSchema,
});
