// The archive-exports worker process: `node services/archive-worker/src/main.ts`.
import { startTracing } from '@switchboard/telemetry';
import { collectBuffersWithTheHeap } from './heap.ts';

collectBuffersWithTheHeap();

// Before the rest of the worker is imported: tracing patches the modules it uses
// (docs/decisions.md#request-ids-and-traces-across-the-queue).
await startTracing('archive-worker');
const { runWorkerService } = await import('@switchboard/runtime');
const { archiveWorker } = await import('./setup.ts');
await runWorkerService({ name: 'archive-worker', ...archiveWorker });
