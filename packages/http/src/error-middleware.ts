import type { ErrorRequestHandler } from 'express';
import { z } from 'zod';
import { errorSummary, type Logger } from '@switchboard/logger';
import { ApiError } from './api-error.ts';
import { fromBodyParserError } from './body-errors.ts';
import { routeTemplate } from './route-template.ts';
import { issuesToItems } from './zod-issues.ts';

/** Tells whether an error means a dependency cannot serve now (its down, silent or overloaded). */
export type UnavailabilityCheck = (error: unknown) => boolean;

/** Seconds a client is told to wait after a 503: about how long a dependency restart takes. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The error or any error it was caused by. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current instanceof Error && chain.length < 5; current = current.cause) chain.push(current);
  return chain;
}

function toApiError(error: unknown, isUnavailable: UnavailabilityCheck): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof z.ZodError) return new ApiError('INVALID_FORM_BODY', { errors: issuesToItems(error.issues) });
  if (causes(error).some(isUnavailable)) return new ApiError('SERVICE_UNAVAILABLE', { cause: error });
  return fromBodyParserError(error) ?? new ApiError('INTERNAL_SERVER_ERROR', { cause: error });
}

/** A 503 always says when to come back, unless the route chose its own value. */
function headersOf(apiError: ApiError): Record<string, string> {
  if (apiError.status !== 503 || 'Retry-After' in apiError.headers) return apiError.headers;
  return { ...apiError.headers, 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };
}

function reasonOf(error: unknown): string {
  return causes(error)
    .map((cause) => (cause as Error).message)
    .join(' <- ');
}

/**
 * The one place errors become responses. ApiError → its status and body; a zod error → 400
 * `INVALID_FORM_BODY` with field paths; an error `isUnavailable` recognises (a database, Redis
 * or S3 that is down or silent) → 503 `SERVICE_UNAVAILABLE` with `Retry-After`; body-parser
 * errors → 400/413/415; anything else → a generic 500 with no internals, logged with the
 * request id.
 */
export function errorMiddleware(logger: Logger, isUnavailable: UnavailabilityCheck = () => false): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    const apiError = toApiError(error, isUnavailable);
    const context = {
      requestId: req.requestId,
      method: req.method,
      route: routeTemplate(req),
      status: apiError.status,
    };
    if (apiError.status === 500) {
      // A summary, not the error: its other properties may carry the request's payload.
      logger.error({ ...context, error: errorSummary(error) }, 'request failed');
    } else if (apiError.status >= 500) {
      // A dependency away (or readiness saying so): the reasons, no stack, no payloads.
      logger.warn({ ...context, code: apiError.code, reason: reasonOf(error) }, 'request not served');
    } else {
      logger.debug({ ...context, code: apiError.code }, 'request rejected');
    }
    if (res.headersSent) {
      // Too late for an error body; Express's final handler closes the connection.
      next(error);
      return;
    }
    res.status(apiError.status).set(headersOf(apiError)).json(apiError.toBody());
  };
}
