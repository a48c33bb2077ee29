import { Router, type RequestHandler } from 'express';
import { cors, createCachedEntity, methodNotAllowed, sendCachedEntity } from '@switchboard/http';
import type { GatewayConfig } from '../../config.ts';
import { buildDiscoveryDocument } from './document.ts';

/** Fluxer's clients probe the origin as well as the versioned API (decisions §1). */
/**
 * The interface's path under /v1 and at the root (clients probe the origin), plus Fluxer's name
 * for the same document, so Fluxer clients discover this instance unchanged.
 */
export const DISCOVERY_PATHS = ['/v1/.well-known/service', '/.well-known/service', '/v1/.well-known/fluxer', '/.well-known/fluxer'] as const;
const ALLOWED_METHODS = ['GET', 'HEAD', 'OPTIONS'];

export interface DiscoveryRouterOptions {
  config: GatewayConfig;
  /** Runs before the document is sent (the rate limiter); preflights are not limited. */
  limiter?: RequestHandler;
}

/**
 * GET/HEAD of the discovery document. Configuration is immutable, so the bytes and the strong
 * ETag are computed once here and every request only compares and writes: it is a hot path.
 */
export function discoveryRouter({ config, limiter }: DiscoveryRouterOptions): Router {
  const entity = createCachedEntity(JSON.stringify(buildDiscoveryDocument(config)), {
    contentType: 'application/json; charset=utf-8',
    cacheControl: 'public, max-age=60',
  });
  const router = Router();
  const corsHandler = cors({ origin: '*', methods: ALLOWED_METHODS });
  const handlers: RequestHandler[] = limiter ? [limiter] : [];
  for (const path of DISCOVERY_PATHS) {
    router
      .route(path)
      .all(corsHandler)
      .get(...handlers, (req, res) => sendCachedEntity(req, res, entity))
      .options((_req, res) => {
        res.setHeader('Allow', ALLOWED_METHODS.join(', '));
        res.status(204).end();
      })
      .all(methodNotAllowed(ALLOWED_METHODS));
  }
  return router;
}
