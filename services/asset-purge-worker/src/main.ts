// The asset-purges worker process: `node services/asset-purge-worker/src/main.ts`.
import { startTracing } from '@switchboard/telemetry';

// Before the rest of the worker is imported: tracing patches the modules it uses
// (docs/decisions.md#request-ids-and-traces-across-the-queue).
await startTracing('asset-purge-worker');
const { runWorkerService } = await import('@switchboard/runtime');
const { assetPurgeWorker } = await import('./setup.ts');
await runWorkerService({ name: 'asset-purge-worker', ...assetPurgeWorker });
