// The gateway process: `node services/gateway/src/main.ts`. The primary of several processes
// (processes.ts) only supervises: it loads neither tracing nor the app, only what supervising
// needs. A process that serves starts tracing first, then imports the gateway (run.ts).
import cluster from 'node:cluster';
import { hasServiceNodeFlags } from '@switchboard/runtime/lifecycle';
import { startTracing } from '@switchboard/telemetry';
import { loadProcessesConfig } from './processes-config.ts';

const processes = loadProcessesConfig();
// Started without the service node flags (by hand: `node services/gateway/src/main.ts`), even
// one process serves as a process of a cluster, which the primary starts with them.
const servesFromProcesses = processes.GATEWAY_PROCESSES > 1 || !hasServiceNodeFlags(process.execArgv);
if (cluster.isPrimary && servesFromProcesses) {
  const [{ createLogger }, { runGatewayProcesses }] = await Promise.all([
    import('@switchboard/logger'),
    import('./processes.ts'),
  ]);
  runGatewayProcesses(processes, createLogger('gateway', processes.LOG_LEVEL));
} else {
  // Before the gateway is imported: tracing patches the modules it uses
  // (docs/decisions.md#request-ids-and-traces-across-the-queue).
  await startTracing('gateway');
  await import('./run.ts');
}
