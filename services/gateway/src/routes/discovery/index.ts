import { Router } from 'express';
import { cors, createCachedEntity, methodNotAllowed, sendCachedEntity } from '@switchboard/http';
import type { GatewayDeps } from '../../deps.ts';
import { routeLimiter } from '../../route-limiter.ts';
import type { AdminFeatures } from '../admin/features.ts';
import { buildDiscoveryDocument } from './document.ts';

/**
 * The interface's path under /v1 and at the root (clients probe the origin), plus Fluxer's name
 * for the same document, so Fluxer clients discover this instance unchanged.
 */
export const DISCOVERY_PATHS = [
  '/v1/.well-known/service',
  '/.well-known/service',
  '/v1/.well-known/fluxer',
  '/.well-known/fluxer',
] as const;
const ALLOWED_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * GET/HEAD of the discovery document, rate limited (`instance:info`); preflights are not
 * limited. Configuration and the mounted admin features are fixed once the app is built, so the
 * bytes and the strong ETag are computed once here and every request only compares and writes:
 * it is a hot path.
 */
export function discoveryRouter(deps: GatewayDeps, adminFeatures: AdminFeatures): Router {
  const { config } = deps;
  const limiter = routeLimiter(deps)('instance:info');
  const entity = createCachedEntity(JSON.stringify(buildDiscoveryDocument(config, adminFeatures)), {
    contentType: 'application/json; charset=utf-8',
    cacheControl: 'public, max-age=60',
  });
  const router = Router();
  const corsHandler = cors({ origin: '*', methods: ALLOWED_METHODS });
  for (const path of DISCOVERY_PATHS) {
    router
      .route(path)
      .all(corsHandler)
      .get(limiter, (req, res) => sendCachedEntity(req, res, entity))
      .options((_req, res) => {
        res.setHeader('Allow', ALLOWED_METHODS.join(', '));
        res.status(204).end();
      })
      .all(methodNotAllowed(ALLOWED_METHODS));
  }
  return router;
}
