// The gateway process: `node services/gateway/src/main.ts`.
import { startTracing } from '@switchboard/telemetry';

// Before the gateway is imported: tracing patches the modules it uses
// (docs/decisions.md#request-ids-and-traces-across-the-queue).
await startTracing('gateway');
await import('./run.ts');
