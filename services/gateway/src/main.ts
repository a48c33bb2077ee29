import cluster from 'node:cluster';
import { createLogger } from '@switchboard/logger';
import { loadGatewayConfig } from './config.ts';
import { runGatewayProcesses } from './processes.ts';

const config = loadGatewayConfig();
if (cluster.isPrimary && config.GATEWAY_PROCESSES > 1) {
  runGatewayProcesses(config, createLogger('gateway', config.LOG_LEVEL));
} else {
  // Loaded only where it serves: a primary of several processes never loads the app.
  const { serveGateway } = await import('./serve.ts');
  await serveGateway(config);
}
