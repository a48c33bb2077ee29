export { createApp, type AppOptions } from './app.ts';
export type { GatewayDeps } from './deps.ts';
export {
  gatewayConfigSchema,
  loadGatewayConfig,
  parseGatewayConfig,
  type Endpoints,
  type GatewayConfig,
} from './config.ts';
export {
  adminFeatures,
  mergeAdminHandlers,
  routeKey,
  servedAdminRoutes,
  type AdminArea,
  type AdminFeatures,
} from './routes/admin/index.ts';
export { buildDiscoveryDocument, type DiscoveryDocument } from './routes/discovery/document.ts';
export { DISCOVERY_PATHS } from './routes/discovery/index.ts';
export {
  buildOpenApiDocument,
  DOCS_PATH,
  gatewayOperations,
  OPENAPI_PATH,
  openApiPath,
  type OperationSpec,
} from './openapi/index.ts';
