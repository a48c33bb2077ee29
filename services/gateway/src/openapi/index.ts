export { openApiRouter } from './router.ts';
export { buildOpenApiDocument, gatewayOperations } from './document.ts';
export { openApiPath, type OperationSpec } from './operation.ts';
export { DOCS_PATH, OPENAPI_PATH } from './public.ts';
