import type { ErrorRequestHandler, Request } from 'express';
import { z } from 'zod';
import type { Logger } from '@switchboard/logger';
import { ApiError } from './api-error.ts';
import { fromBodyParserError } from './body-errors.ts';
import { issuesToItems } from './zod-issues.ts';

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof z.ZodError) return new ApiError('INVALID_FORM_BODY', { errors: issuesToItems(error.issues) });
  return fromBodyParserError(error) ?? new ApiError('INTERNAL_SERVER_ERROR', { cause: error });
}

/**
 * The route pattern, not the URL: URLs can carry secrets (webhook tokens are path segments),
 * and logs never hold those.
 */
function routeOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  return typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : '(unmatched)';
}

/**
 * The one place errors become responses. ApiError → its status and body; a zod error → 400
 * `INVALID_FORM_BODY` with field paths; body-parser errors → 400/413/415; anything else → a
 * generic 500 with no internals, logged with the request id.
 */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    const apiError = toApiError(error);
    const context = { requestId: req.requestId, method: req.method, route: routeOf(req), status: apiError.status };
    if (!(error instanceof ApiError) && apiError.status >= 500) {
      logger.error({ ...context, err: error }, 'request failed');
    } else if (apiError.status >= 500) {
      // Deliberate 5xx answers (503 from readiness while a dependency is down): no stack.
      logger.warn({ ...context, code: apiError.code }, 'request not served');
    } else {
      logger.debug({ ...context, code: apiError.code }, 'request rejected');
    }
    if (res.headersSent) {
      // Too late for an error body; Express's final handler closes the connection.
      next(error);
      return;
    }
    res.status(apiError.status).set(apiError.headers).json(apiError.toBody());
  };
}
