/**
 * The error model and the body checks that need no express: what a webhook body's parse thread
 * loads (`@switchboard/http/errors`). The package's index also loads express and every
 * middleware, which on a busy machine made a fresh thread take seconds before its first check.
 */
export { ApiError, isApiError, type ApiErrorOptions } from './api-error.ts';
export { notJsonError } from './body-errors.ts';
export { assertJsonCounts } from './json-counts.ts';
export { assertJsonDepth } from './json-depth.ts';
export { issuesToItems } from './zod-issues.ts';
