export { ApiError, isApiError, type ApiErrorOptions } from './api-error.ts';
export { fromBodyParserError, notJsonError } from './body-errors.ts';
export {
  createCachedEntity,
  ifNoneMatchMatches,
  sendCachedEntity,
  strongEtag,
  type CachedEntity,
} from './cacheable.ts';
export { cors, type CorsOptions } from './cors.ts';
export { errorMiddleware } from './error-middleware.ts';
export { createAdaptedApp, createAppServer, type AdaptedAppOptions } from './express-adaptations/index.ts';
export { jsonBody, type JsonBodyOptions } from './json-body.ts';
export {
  declaredBodyBytes,
  readDeclaredBody,
  readInTurns,
  readStreamedBody,
  type StreamedBodyOptions,
} from './read-body.ts';
export { watchBodyArrival, type BodyTimeouts } from './body-arrival.ts';
export { REQUEST_ID_HEADER, requestId, requestIdOf } from './request-id.ts';
export { responseLocal, type ResponseLocal } from './response-local.ts';
export { methodNotAllowed, notFound } from './routing.ts';
export { dropEmptyStrings, validate } from './validate.ts';
export { issuePath, issuesToItems } from './zod-issues.ts';
export * from './rate-limit/index.ts';
export { assertJsonCounts, MAX_JSON_CONTAINERS, MAX_JSON_VALUES } from './json-counts.ts';
export { assertJsonDepth, MAX_JSON_DEPTH } from './json-depth.ts';
export { answerClientErrors } from './client-errors.ts';
export { closeWithoutReading, UNREAD_BODY_LINGER_MS } from './close-unread.ts';
export { routeTemplate } from './route-template.ts';
