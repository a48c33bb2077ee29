import { createHash } from 'node:crypto';
import { GLOBAL_RATE_LIMIT, LIMITS, type DiscoveryDocument, type RateLimitBucket } from '@switchboard/contracts';
import { configuredBuckets } from '../../route-limiter.ts';
import type { GatewayConfig } from '../../config.ts';
import type { AdminFeatures } from '../admin/features.ts';
import { serviceLimitsFrom } from './service-limits.ts';

/** Version of this document's wire shape, as Fluxer's `API_CODE_VERSION`. */
export const API_CODE_VERSION = 1;
/** Fluxer's `FEDERATION_PROTOCOL_VERSION`; reported only when federation is enabled. */
export const FEDERATION_PROTOCOL_VERSION = 1;
/** The inbound formats `/webhooks/{id}/{token}/<format>` accepts (aliases github/sentry/slack too). */
export const WEBHOOK_FORMATS = ['codehost', 'errortracker', 'chatapp'] as const;

/**
 * The limits every client shares, under Fluxer's limit keys
 * (docs/decisions.md#fluxer-discovery-document): the values this service enforces, from the limits
 * table. No traits exist here, so there is one `default` rule.
 */
function limitOverrides(): Record<string, number> {
  return {
    max_message_length: LIMITS.messages.maxContentLength,
    max_embeds_per_message: LIMITS.messages.maxEmbeds,
    max_webhooks_per_channel: LIMITS.webhooks.perChannel,
    max_webhooks_per_guild: LIMITS.webhooks.perGuild,
    avatar_max_size: LIMITS.webhooks.avatarMaxBytes,
  };
}

/** A short base-36 digest, as Fluxer's `defaultsHash`: clients refetch limits when it changes. */
function base36Digest(value: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(value)).digest();
  return digest.readBigUInt64BE(0).toString(36);
}

function limitsBlock() {
  const traitDefinitions: string[] = [];
  const rules = [{ id: 'default', overrides: limitOverrides() }];
  return { version: 2 as const, traitDefinitions, rules, defaultsHash: base36Digest({ traitDefinitions, rules }) };
}

function endpointsBlock({ endpoints }: GatewayConfig) {
  return {
    // Fluxer reports the client base URL as both `api` and `api_client`.
    api: endpoints.api,
    api_client: endpoints.api,
    api_public: endpoints.api,
    gateway: endpoints.gateway,
    media: endpoints.media,
    static_cdn: endpoints.staticCdn,
    marketing: endpoints.marketing,
    admin: endpoints.admin,
    invite: endpoints.invite,
    gift: endpoints.gift,
    webapp: endpoints.webapp,
  };
}

function featuresBlock(config: GatewayConfig, adminFeatures: AdminFeatures) {
  return {
    sms_mfa_enabled: config.SMS_MFA_ENABLED,
    voice_enabled: config.VOICE_ENABLED,
    stripe_enabled: config.STRIPE_ENABLED,
    self_hosted: config.SELF_HOSTED,
    manual_review_enabled: config.MANUAL_REVIEW_ENABLED,
    webhook_formats: [...WEBHOOK_FORMATS],
    // What the admin router serves on this instance (docs/decisions.md#published-limits-and-features), never a literal.
    archives: adminFeatures.archives,
    asset_purge: adminFeatures.asset_purge,
    bulk_operations: adminFeatures.bulk_operations,
  };
}

/**
 * The discovery document (docs/decisions.md#discovery-document, #fluxer-discovery-document), built
 * from configuration, the admin features the app mounts (adminFeatures()) and the limits and
 * rate-limit tables. Pure: the same inputs always give the same document.
 */
export function buildDiscoveryDocument(
  config: GatewayConfig,
  adminFeatures: AdminFeatures,
  rateLimits: { buckets: Record<string, RateLimitBucket>; global: RateLimitBucket } = {
    buckets: configuredBuckets(config),
    global: GLOBAL_RATE_LIMIT,
  },
): DiscoveryDocument {
  return {
    api_code_version: API_CODE_VERSION,
    endpoints: endpointsBlock(config),
    captcha: {
      provider: config.CAPTCHA_PROVIDER,
      hcaptcha_site_key: config.HCAPTCHA_SITE_KEY ?? null,
      turnstile_site_key: config.TURNSTILE_SITE_KEY ?? null,
    },
    features: featuresBlock(config, adminFeatures),
    gif: { provider: config.GIF_PROVIDER },
    // Single sign-on is not implemented here, so it is reported off whatever the deployment.
    sso: {
      enabled: false,
      enforced: false,
      display_name: null,
      redirect_uri: `${config.endpoints.webapp}/auth/sso/callback`,
    },
    limits: limitsBlock(),
    push: { public_vapid_key: config.PUSH_PUBLIC_VAPID_KEY ?? null },
    app_public: { sentry_dsn: config.APP_PUBLIC_SENTRY_DSN },
    ...(config.FEDERATION_ENABLED
      ? { federation: { enabled: true as const, version: FEDERATION_PROTOCOL_VERSION } }
      : {}),
    // The bulk size is the deployment's (it may lower the default): publish what is enforced.
    service_limits: serviceLimitsFrom(
      { ...LIMITS, bulk: { maxUserIds: config.BULK_MAX_USER_IDS } },
      { enabled: config.RATE_LIMITS_ENABLED, ...rateLimits },
    ),
  };
}

export type { DiscoveryDocument };
