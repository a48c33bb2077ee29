import { z } from 'zod';
import {
  discoveryDocumentSchema,
  livenessResponseSchema,
  messageResponseSchema,
  openApiDocumentSchema,
  readinessResponseSchema,
  type ErrorCode,
} from '@switchboard/contracts';
import { listMessagesQuery } from '../routes/channels/messages.ts';
import type { GatewayConfig } from '../config.ts';
import { buildDiscoveryDocument } from '../routes/discovery/document.ts';
import { DISCOVERY_PATHS } from '../routes/discovery/index.ts';
import { EVERY_ROUTE } from './errors.ts';
import { MESSAGE } from './examples/index.ts';
import { presented, type OperationSpec, type SuccessSpec } from './operation.ts';

/** Where the document and its reference page are served (router.ts mounts these). */
export const OPENAPI_PATH = '/v1/openapi.json';
export const DOCS_PATH = '/docs';

const notModified: SuccessSpec = { status: 304, description: 'The copy named by `If-None-Match` is current.' };

/** Each discovery path's name in its operations' ids: the interface's, Fluxer's, each under /v1 and at the root. */
const DISCOVERY_NAMES: Record<(typeof DISCOVERY_PATHS)[number], string> = {
  '/v1/.well-known/service': 'discovery_document',
  '/.well-known/service': 'root_discovery_document',
  '/v1/.well-known/fluxer': 'fluxer_discovery_document',
  '/.well-known/fluxer': 'root_fluxer_discovery_document',
};

/** The discovery document at each of its paths (docs/decisions.md#discovery-document): GET, and CORS preflights. */
function discoveryOperations(config: GatewayConfig): OperationSpec[] {
  // This instance's own document (every admin feature on) is the example: a valid one by construction.
  const example = buildDiscoveryDocument(config, { archives: true, asset_purge: true, bulk_operations: true });
  return DISCOVERY_PATHS.flatMap((path): OperationSpec[] => [
    {
      method: 'get',
      operationId: `get_${DISCOVERY_NAMES[path]}`,
      path,
      summary: 'The instance discovery document',
      tag: 'discovery',
      security: 'none',
      success: [presented('Endpoints, feature flags, limits.', discoveryDocumentSchema, example), notModified],
      errors: [...EVERY_ROUTE, 'RATE_LIMITED'],
    },
    {
      method: 'options',
      operationId: `preflight_${DISCOVERY_NAMES[path]}`,
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
    operationId: string,
    path: string,
    summary: string,
    success: SuccessSpec[],
    errors: readonly ErrorCode[],
  ): OperationSpec => ({
    method: 'get',
    operationId,
    path,
    summary,
    tag: 'operations',
    security: 'none',
    success,
    errors,
  });
  const ready = {
    status: 'degraded',
    checks: { postgres: 'ok', ip_bans: 'ok', redis: 'ok', s3: 'timeout', snowflake: 'ok' },
  };
  const metrics =
    '# TYPE http_requests_total counter\nhttp_requests_total{route="/v1/webhooks/:webhook_id/:token"} 42\n';
  return [
    health(
      'get_liveness',
      '/healthz',
      'Liveness: the process is up',
      [presented('Up.', livenessResponseSchema, { status: 'ok' })],
      ['INTERNAL_SERVER_ERROR'],
    ),
    health(
      'get_readiness',
      '/readyz',
      'Readiness: `ok` or `degraded`; 503 when a core dependency is down or draining',
      [presented('Ready.', readinessResponseSchema, ready)],
      ['SERVICE_UNAVAILABLE', 'INTERNAL_SERVER_ERROR'],
    ),
    health(
      'get_metrics',
      '/metrics',
      'Prometheus metrics',
      [
        {
          status: 200,
          description: 'Prometheus text format.',
          contentType: 'text/plain',
          json: { type: 'string' },
          example: metrics,
        },
      ],
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
      operationId: 'list_messages',
      path: '/v1/channels/:channel_id/messages',
      summary: "A page of a channel's messages, newest first",
      description: 'Needs VIEW_CHANNEL and READ_MESSAGE_HISTORY in the channel (its permission overwrites applied).',
      tag: 'channels',
      security: 'userToken',
      query: listMessagesQuery,
      success: [presented('A page of messages, newest first.', z.array(messageResponseSchema), [MESSAGE])],
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
      operationId: 'get_openapi_document',
      path: OPENAPI_PATH,
      summary: 'This OpenAPI 3.1 document',
      tag: 'operations',
      security: 'none',
      success: [
        presented('The document.', openApiDocumentSchema, {
          openapi: '3.1.1',
          info: { title: 'Switchboard API', version: '1.0.0' },
          paths: {},
        }),
        notModified,
      ],
      errors: EVERY_ROUTE,
    },
    {
      method: 'get',
      operationId: 'get_api_reference',
      path: DOCS_PATH,
      summary: 'Interactive API reference (HTML)',
      tag: 'operations',
      security: 'none',
      success: [
        {
          status: 200,
          description: 'The reference page.',
          contentType: 'text/html',
          json: { type: 'string' },
          example: '<!doctype html><title>Switchboard API</title>…',
        },
        notModified,
      ],
      errors: EVERY_ROUTE,
    },
  ];
}

export function publicOperations(config: GatewayConfig): OperationSpec[] {
  return [...discoveryOperations(config), ...healthOperations(), ...channelOperations(), ...documentationOperations()];
}
