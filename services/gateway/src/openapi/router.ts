import { Router } from 'express';
import { cors, createCachedEntity, methodNotAllowed, sendCachedEntity } from '@switchboard/http';
import type { GatewayConfig } from '../config.ts';
import { ASSETS_PATH, DOCS_CSP, DOCS_PAGE, docsAssets } from './docs-page.ts';
import { buildOpenApiDocument } from './document.ts';
import { DOCS_PATH, OPENAPI_PATH } from './public.ts';

const READ_METHODS = ['GET', 'HEAD'];

/**
 * `GET /v1/openapi.json` and the reference page `/docs`, both public
 * (docs/decisions.md#public-api-description: a public API description). The document is built once,
 * here at start-up; requests only compare the strong ETag and write the bytes, as for discovery.
 */
export function openApiRouter(config: GatewayConfig): Router {
  const document = createCachedEntity(JSON.stringify(buildOpenApiDocument(config)), {
    contentType: 'application/json; charset=utf-8',
    cacheControl: 'public, max-age=300',
  });
  const router = Router();
  router
    .route(OPENAPI_PATH)
    .get(cors({ origin: '*', methods: READ_METHODS }), (req, res) => sendCachedEntity(req, res, document))
    .all(methodNotAllowed(READ_METHODS));
  router
    .route(DOCS_PATH)
    .get((req, res) => {
      // `/docs/` would resolve the page's relative asset URLs one level too deep.
      if (req.path.endsWith('/')) return res.redirect(301, '../docs');
      res.setHeader('Content-Security-Policy', DOCS_CSP);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      sendCachedEntity(req, res, DOCS_PAGE);
    })
    .all(methodNotAllowed(READ_METHODS));
  router.use(ASSETS_PATH, docsAssets());
  return router;
}
