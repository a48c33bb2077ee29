export { createApp, type GatewayDeps } from './app.ts';
export { gatewayConfigSchema, loadGatewayConfig, parseGatewayConfig, type Endpoints, type GatewayConfig } from './config.ts';
export { buildDiscoveryDocument, type DiscoveryDocument } from './routes/discovery/document.ts';
export { DISCOVERY_PATHS } from './routes/discovery/index.ts';
