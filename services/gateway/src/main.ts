import cluster from 'node:cluster';
import { createLogger } from '@switchboard/logger';
import { loadGatewayConfig } from './config.ts';
import { runGatewayProcesses } from './processes.ts';
import { serveGateway } from './serve.ts';

const config = loadGatewayConfig();
if (cluster.isPrimary && config.GATEWAY_PROCESSES > 1) runGatewayProcesses(config, createLogger('gateway', config.LOG_LEVEL));
else await serveGateway(config);
