// The bulk-operations worker process: `node services/bulk-worker/src/main.ts`.
import { startTracing } from '@switchboard/telemetry';

// Before the rest of the worker is imported: tracing patches the modules it uses
// (docs/decisions.md#request-ids-and-traces-across-the-queue).
await startTracing('bulk-worker');
const { runWorkerService } = await import('@switchboard/runtime');
const { bulkWorker } = await import('./setup.ts');
await runWorkerService({ name: 'bulk-worker', ...bulkWorker });
