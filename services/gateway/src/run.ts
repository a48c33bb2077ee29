// The gateway: one process serving, or the primary of several (processes.ts); main.ts imports it.
import cluster from 'node:cluster';
import { createLogger } from '@switchboard/logger';
import { hasServiceNodeFlags } from '@switchboard/runtime';
import { loadGatewayConfig } from './config.ts';
import { runGatewayProcesses } from './processes.ts';

const config = loadGatewayConfig();
// Started without the service node flags (by hand: `node services/gateway/src/main.ts`), even
// one process serves as a process of a cluster, which the primary starts with them.
const servesFromProcesses = config.GATEWAY_PROCESSES > 1 || !hasServiceNodeFlags(process.execArgv);
if (cluster.isPrimary && servesFromProcesses) {
  runGatewayProcesses(config, createLogger('gateway', config.LOG_LEVEL));
} else {
  // Loaded only where it serves: a primary of several processes never loads the app.
  const { serveGateway } = await import('./serve.ts');
  await serveGateway(config);
}
