import type { RequestHandler } from 'express';
import { ApiError } from './api-error.ts';

/** The last handler of an app: any request no route took is a JSON 404 `NOT_FOUND`. */
export function notFound(): RequestHandler {
  return (_req, _res, next) => next(new ApiError('NOT_FOUND'));
}

/** For `router.route(path).all(...)` after the allowed methods: 405 with an `Allow` header. */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  const allow = allowed.join(', ');
  return (_req, _res, next) => next(new ApiError('METHOD_NOT_ALLOWED', { headers: { Allow: allow } }));
}
