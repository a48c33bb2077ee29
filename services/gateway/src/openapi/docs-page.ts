import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type RequestHandler } from 'express';
import { createCachedEntity, type CachedEntity } from '@switchboard/http';

/** Swagger UI, from the swagger-ui-dist package: served by us, never from a CDN. */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_VERSION = (
  JSON.parse(readFileSync(join(SWAGGER_UI_DIR, 'package.json'), 'utf8')) as { version: string }
).version;
/** The only files of the package the page uses; the rest (its demo page, source maps) stay unserved. */
const PACKAGE_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js']);
const INIT_SCRIPT = 'init.js';

/**
 * Swagger UI on this gateway's own document, found relative to the page so a path prefix in
 * front of the gateway still works. BaseLayout has no URL box, so the page shows no other
 * document; no validator badge (it would call out).
 */
const INIT_SOURCE = `window.addEventListener('load', function () {
  var base = window.location.pathname.replace(/\\/docs\\/?$/, '');
  window.ui = SwaggerUIBundle({
    url: base + '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    layout: 'BaseLayout',
  });
});
`;

/** Part of every asset URL: a new package version or script is a new URL, so assets can be cached for good. */
const ASSET_VERSION = `${SWAGGER_UI_VERSION}-${createHash('sha256').update(INIT_SOURCE).digest('hex').slice(0, 8)}`;
export const ASSETS_PATH = `/docs/assets/${ASSET_VERSION}`;

/**
 * Only this origin's scripts, styles and connections; images also as `data:` URIs, which
 * Swagger UI's stylesheet uses for its icons. No inline script or style, no framing.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Relative URLs: the page is `/docs`, so `docs/assets/…` resolves under it, also behind a path prefix. */
export const DOCS_PAGE: CachedEntity = createCachedEntity(
  `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Switchboard API reference</title>
<link rel="stylesheet" href="${ASSETS_PATH.slice(1)}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS_PATH.slice(1)}/swagger-ui-bundle.js"></script>
<script src="${ASSETS_PATH.slice(1)}/${INIT_SCRIPT}"></script>
</body>
</html>
`,
  { contentType: 'text/html; charset=utf-8', cacheControl: 'public, max-age=300' },
);

const ONE_YEAR_MS = 365 * 86_400_000;

/**
 * The page's assets under ASSETS_PATH (mount with `use`): the two package files and the init
 * script, immutable for a year (the URL changes with them); any other name falls through to 404.
 */
export function docsAssets(): RequestHandler {
  const files = express.static(SWAGGER_UI_DIR, {
    index: false,
    immutable: true,
    maxAge: ONE_YEAR_MS,
    fallthrough: true,
  });
  const init = Buffer.from(INIT_SOURCE, 'utf8');
  return (req, res, next) => {
    const name = req.path.slice(1);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (name === INIT_SCRIPT && (req.method === 'GET' || req.method === 'HEAD')) {
      res.setHeader('Cache-Control', `public, max-age=${ONE_YEAR_MS / 1000}, immutable`);
      res.type('text/javascript').send(init);
      return;
    }
    if (!PACKAGE_ASSETS.has(name)) return next();
    files(req, res, next);
  };
}
