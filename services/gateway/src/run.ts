// A gateway process that serves: alone, or one of the primary's (processes.ts); main.ts imports it.
import { loadGatewayConfig } from './config.ts';
import { serveGateway } from './serve.ts';

await serveGateway(loadGatewayConfig());
