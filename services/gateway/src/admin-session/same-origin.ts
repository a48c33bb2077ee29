import type { Request, RequestHandler } from 'express';
import { ApiError } from '@switchboard/http';
import type { GatewayConfig } from '../config.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isSafeMethod(req: Request): boolean {
  return SAFE_METHODS.has(req.method);
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * CSRF defence for cookie-authenticated changes, on top of the cookie's SameSite=Strict: a
 * request that changes something must carry an `Origin` that is the public origin
 * (PUBLIC_BASE_URL) or the host it was sent to. Browsers always send Origin on such requests
 * and a page cannot forge it; a missing or `null` Origin is refused too.
 */
export function sameOriginChanges(config: GatewayConfig, tool: string): RequestHandler {
  const publicOrigin = new URL(config.endpoints.api).origin;
  return (req, _res, next) => {
    if (isSafeMethod(req)) return next();
    const origin = req.headers.origin;
    if (
      origin !== undefined &&
      (origin === publicOrigin || (hostOf(origin) !== null && hostOf(origin) === req.headers.host))
    )
      return next();
    next(
      new ApiError('FORBIDDEN', {
        message: `Cross-origin request refused: ${tool} changes must come from the ${tool} page.`,
      }),
    );
  };
}
