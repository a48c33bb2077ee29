import type { RequestHandler } from 'express';

export interface CorsOptions {
  /** Only `*` is supported: public routes carry no credentials, so any origin may read them. */
  origin: '*';
  /** Methods a preflight allows. */
  methods?: readonly string[];
  /** How long a browser may cache a preflight answer, in seconds. */
  maxAgeSeconds?: number;
}

/** Headers a browser script may read from our responses (rate limits, caching, correlation). */
const EXPOSED_HEADERS = [
  'ETag',
  'Retry-After',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Global',
  'X-RateLimit-Bucket',
].join(', ');

/**
 * CORS for public routes: `Access-Control-Allow-Origin: *` on every response, and a 204 answer
 * to preflight requests (OPTIONS with `Access-Control-Request-Method`).
 */
export function cors({ methods = ['GET', 'HEAD', 'OPTIONS'], maxAgeSeconds = 86_400 }: CorsOptions): RequestHandler {
  const allowMethods = methods.join(', ');
  return (req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (req.method !== 'OPTIONS' || req.get('Access-Control-Request-Method') === undefined) {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Methods', allowMethods);
    const requestedHeaders = req.get('Access-Control-Request-Headers');
    if (requestedHeaders !== undefined) res.setHeader('Access-Control-Allow-Headers', requestedHeaders);
    res.setHeader('Access-Control-Max-Age', String(maxAgeSeconds));
    res.vary('Access-Control-Request-Headers');
    res.status(204).end();
  };
}
