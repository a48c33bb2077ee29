import type { Request } from 'express';

/**
 * The route pattern a request matched (`/v1/webhooks/:webhook_id/:token`), not its URL: URLs
 * carry secrets (webhook tokens are path segments) and unbounded ids, and logs and metric
 * labels hold neither. `(unmatched)` before routing or for a 404.
 */
export function routeTemplate(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  return typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : '(unmatched)';
}
