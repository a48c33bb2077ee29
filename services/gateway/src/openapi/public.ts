import { z } from 'zod';
import { messageResponseSchema, type ErrorCode } from '@switchboard/contracts';
import { listMessagesQuery } from '../routes/channels/messages.ts';
import { DISCOVERY_PATHS } from '../routes/discovery/index.ts';
import { EVERY_ROUTE } from './errors.ts';
import { jsonObject, presented, type OperationSpec, type SuccessSpec } from './operation.ts';

/** Where the document and its reference page are served (router.ts mounts these). */
export const OPENAPI_PATH = '/v1/openapi.json';
export const DOCS_PATH = '/docs';

const notModified: SuccessSpec = { status: 304, description: 'The copy named by `If-None-Match` is current.' };

/** The discovery document at each of its paths (docs/decisions.md#discovery-document): GET, and CORS preflights. */
function discoveryOperations(): OperationSpec[] {
  return DISCOVERY_PATHS.flatMap((path): OperationSpec[] => [
    {
      method: 'get',
      path,
      summary: 'The instance discovery document',
      tag: 'discovery',
      security: 'none',
      success: [jsonObject('Endpoints, feature flags, limits.'), notModified],
      errors: [...EVERY_ROUTE, 'RATE_LIMITED'],
    },
    {
      method: 'options',
      path,
      summary: 'CORS preflight of the discovery document',
      tag: 'discovery',
      security: 'none',
      success: [{ status: 204, description: 'Allowed methods in `Allow`.' }],
      errors: EVERY_ROUTE,
    },
  ]);
}

/** Health routes run before nothing but request ids: no IP bans, no limits (routes/health.ts). */
function healthOperations(): OperationSpec[] {
  const health = (
    path: string,
    summary: string,
    success: SuccessSpec[],
    errors: readonly ErrorCode[],
  ): OperationSpec => ({
    method: 'get',
    path,
    summary,
    tag: 'operations',
    security: 'none',
    success,
    errors,
  });
  const readiness = { type: 'object', properties: { status: { type: 'string' }, checks: { type: 'object' } } };
  return [
    health('/healthz', 'Liveness: the process is up', [jsonObject('`{"status":"ok"}`')], ['INTERNAL_SERVER_ERROR']),
    health(
      '/readyz',
      'Readiness: `ok` or `degraded`; 503 when a core dependency is down or draining',
      [{ status: 200, description: 'Ready.', json: readiness }],
      ['SERVICE_UNAVAILABLE', 'INTERNAL_SERVER_ERROR'],
    ),
    health(
      '/metrics',
      'Prometheus metrics',
      [{ status: 200, description: 'Prometheus text format.', contentType: 'text/plain', json: { type: 'string' } }],
      ['INTERNAL_SERVER_ERROR'],
    ),
  ];
}

/**
 * Channel read models (routes/channels): user token → limit → 401 → channel id → membership →
 * VIEW_CHANNEL and READ_MESSAGE_HISTORY in the channel.
 */
function channelOperations(): OperationSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/channels/:channel_id/messages',
      summary: "A page of a channel's messages, newest first",
      description: 'Needs VIEW_CHANNEL and READ_MESSAGE_HISTORY in the channel (its permission overwrites applied).',
      tag: 'channels',
      security: 'userToken',
      query: listMessagesQuery,
      success: [presented('Message[]', z.array(messageResponseSchema))],
      errors: [
        ...EVERY_ROUTE,
        'RATE_LIMITED',
        'UNAUTHORIZED',
        'INVALID_FORM_BODY',
        'UNKNOWN_CHANNEL',
        'MISSING_ACCESS',
        'MISSING_PERMISSIONS',
      ],
    },
  ];
}

/** This document and its reference page: public, no credentials (they describe, never hold, secrets). */
function documentationOperations(): OperationSpec[] {
  return [
    {
      method: 'get',
      path: OPENAPI_PATH,
      summary: 'This OpenAPI 3.1 document',
      tag: 'operations',
      security: 'none',
      success: [jsonObject('The document.'), notModified],
      errors: EVERY_ROUTE,
    },
    {
      method: 'get',
      path: DOCS_PATH,
      summary: 'Interactive API reference (HTML)',
      tag: 'operations',
      security: 'none',
      success: [
        { status: 200, description: 'The reference page.', contentType: 'text/html', json: { type: 'string' } },
        notModified,
      ],
      errors: EVERY_ROUTE,
    },
  ];
}

export function publicOperations(): OperationSpec[] {
  return [...discoveryOperations(), ...healthOperations(), ...channelOperations(), ...documentationOperations()];
}
