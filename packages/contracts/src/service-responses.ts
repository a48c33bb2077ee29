import { z } from 'zod';
import { apiSchema } from './api-schemas.ts';

/** Bodies of the public, unauthenticated routes: discovery, health, the API description. */

const endpoint = z.string();

/**
 * The instance discovery document (docs/decisions.md#discovery-document, #fluxer-discovery-document):
 * Fluxer's keys plus `service_limits`, every limit and rate-limit bucket this instance enforces.
 */
export const discoveryDocumentSchema = apiSchema(
  'DiscoveryDocument',
  z.object({
    api_code_version: z.number().int(),
    endpoints: z.object({
      api: endpoint,
      api_client: endpoint,
      api_public: endpoint,
      gateway: endpoint,
      media: endpoint,
      static_cdn: endpoint,
      marketing: endpoint,
      admin: endpoint,
      invite: endpoint,
      gift: endpoint,
      webapp: endpoint,
    }),
    captcha: z.object({
      provider: z.enum(['none', 'hcaptcha', 'turnstile']),
      hcaptcha_site_key: z.string().nullable(),
      turnstile_site_key: z.string().nullable(),
    }),
    features: z.object({
      sms_mfa_enabled: z.boolean(),
      voice_enabled: z.boolean(),
      stripe_enabled: z.boolean(),
      self_hosted: z.boolean(),
      manual_review_enabled: z.boolean(),
      webhook_formats: z.array(z.enum(['codehost', 'errortracker', 'chatapp'])),
      archives: z.boolean(),
      asset_purge: z.boolean(),
      bulk_operations: z.boolean(),
    }),
    gif: z.object({ provider: z.enum(['klipy', 'tenor']) }),
    sso: z.object({
      enabled: z.boolean(),
      enforced: z.boolean(),
      display_name: z.string().nullable(),
      redirect_uri: z.string(),
    }),
    limits: z.object({
      version: z.literal(2),
      traitDefinitions: z.array(z.string()),
      rules: z.array(z.object({ id: z.string(), overrides: z.record(z.string(), z.number()) })),
      defaultsHash: z.string(),
    }),
    push: z.object({ public_vapid_key: z.string().nullable() }),
    app_public: z.object({ sentry_dsn: z.string() }),
    /** Present only when federation is enabled. */
    federation: z.object({ enabled: z.literal(true), version: z.number().int() }).optional(),
    /** The limits table in snake_case, and every rate-limit bucket. */
    service_limits: z.looseObject({
      rate_limits: z.object({
        enabled: z.boolean(),
        global: z.object({ limit: z.number().int(), window_ms: z.number().int() }),
        buckets: z.record(
          z.string(),
          z.object({ limit: z.number().int(), window_ms: z.number().int(), counts_toward_global: z.boolean() }),
        ),
      }),
    }),
  }),
);
export type DiscoveryDocument = z.output<typeof discoveryDocumentSchema>;

export const livenessResponseSchema = apiSchema('Liveness', z.object({ status: z.literal('ok') }));

export const readinessResponseSchema = apiSchema(
  'Readiness',
  z.object({
    status: z.enum(['ok', 'degraded', 'unavailable', 'draining']),
    checks: z.record(z.string(), z.enum(['ok', 'failed', 'timeout'])),
  }),
);

/** The OpenAPI document describes itself only by its outline: what a reader needs to find it is one. */
export const openApiDocumentSchema = apiSchema(
  'OpenApiDocument',
  z.looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  }),
);
