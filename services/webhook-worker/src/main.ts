// The webhook-deliveries worker process: `node services/webhook-worker/src/main.ts`.
import { startTracing } from '@switchboard/telemetry';

// Before the rest of the worker is imported: tracing patches the modules it uses
// (docs/decisions.md#request-ids-and-traces-across-the-queue).
await startTracing('webhook-worker');
const { runWorkerService } = await import('@switchboard/runtime');
const { webhookWorker } = await import('./setup.ts');
await runWorkerService({ name: 'webhook-worker', ...webhookWorker });
