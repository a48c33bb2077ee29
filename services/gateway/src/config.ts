import {
  commonSchema,
  env,
  loadConfig,
  parseConfig,
  s3Schema,
  secretsEncryptionSchema,
  z,
  type ParsedConfig,
} from '@switchboard/config';
import { RATE_LIMIT_BUCKETS } from '@switchboard/contracts';
import { DEFAULT_RATE_LIMIT_TIMEOUT_MS } from '@switchboard/http';
import { MAX_LEASE_MS } from './change-feed.ts';
import { consoleConfigShape } from './console/config.ts';
import { dashboardConfigShape } from './dashboard/config.ts';
import { banConfigShape } from './ip-bans/config.ts';
import { jobsConfigShape } from './jobs/config.ts';
import { archiveConfigShape } from './routes/admin/archives/config.ts';
import { processesConfigShape } from './processes-config.ts';
import { executeConfigShape } from './routes/webhooks/execute/config.ts';

const httpUrl = () => env.url(['http', 'https']);
const flag = (fallback: boolean) => env.bool().default(fallback);

/** The gateway's variables. Every one is parsed here, once; nothing else reads the environment. */
const variables = z.object({
  ...commonSchema.shape,
  ...s3Schema.shape,
  ...secretsEncryptionSchema.shape,
  PORT: env.int(0, 65_535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Where clients reach this gateway (the origin `/v1` hangs off); default `http://localhost:<PORT>`. */
  PUBLIC_BASE_URL: httpUrl().optional(),
  /** Reverse proxies in front of the gateway whose `X-Forwarded-For` entries are trusted. */
  TRUSTED_PROXY_HOPS: env.int(0, 16).default(0),
  RATE_LIMITS_ENABLED: flag(true),
  /** How long a request waits for the rate limiter's Redis before it is let through unlimited. */
  RATE_LIMIT_TIMEOUT_MS: env.int(10, 60_000).default(DEFAULT_RATE_LIMIT_TIMEOUT_MS),
  /**
   * Tests only (refused with NODE_ENV=production): read the limiter's clock, in microseconds,
   * from the Redis key `<REDIS_PREFIX>:<this>` instead of Redis time, so tests move time themselves.
   */
  RATE_LIMIT_CLOCK_KEY: z.string().min(1).optional(),
  /**
   * The client address's failure budget: failures that prove nothing about the caller
   * (unknown admin key, unknown webhook, wrong token) it may make per AUTH_FAILURE_WINDOW_MS,
   * all at once or spread out. Sized for a shared sender's stale deliveries (docs/decisions.md).
   */
  AUTH_FAILURE_BUDGET: env.int(1, 1_000_000).default(RATE_LIMIT_BUCKETS['auth:failures'].limit),
  AUTH_FAILURE_WINDOW_MS: env.int(1000, 86_400_000).default(RATE_LIMIT_BUCKETS['auth:failures'].windowMs),
  // SHUTDOWN_TIMEOUT_MS, GATEWAY_PROCESSES (processes-config.ts: the primary reads only those).
  ...processesConfigShape,
  /**
   * How long one heard beat of the credential change feed lets a process answer from the admin
   * keys and webhooks it cached (change-feed.ts): also the longest a key or webhook deletion
   * waits for a replica that stopped answering. 0: no cache, every request reads its key or
   * webhook from PostgreSQL.
   */
  CREDENTIAL_CACHE_LEASE_MS: env.int(0, MAX_LEASE_MS).default(1_000),
  // IP ban enforcement and the ban routes' reverse DNS (ip-bans/config.ts).
  ...banConfigShape,
  // Webhook execution: `?wait=true` bound, inline body size (routes/webhooks/execute/config.ts).
  ...executeConfigShape,
  // Admin routes that run jobs: the wait before 202, the bulk size (jobs/config.ts).
  ...jobsConfigShape,
  // Archives: retention of a new archive, lifetime of a download link (routes/admin/archives/config.ts).
  ...archiveConfigShape,
  // Queue dashboard: how long a sign-in lasts (dashboard/config.ts).
  ...dashboardConfigShape,
  // Operator console: how long a sign-in lasts, the bound on its admin calls (console/config.ts).
  ...consoleConfigShape,

  // Discovery document: endpoints default to paths on the PUBLIC_BASE_URL origin.
  GATEWAY_WS_URL: env.url(['ws', 'wss']).optional(),
  MEDIA_URL: httpUrl().optional(),
  STATIC_CDN_URL: httpUrl().optional(),
  WEBAPP_URL: httpUrl().optional(),
  ADMIN_URL: httpUrl().optional(),
  INVITE_URL: httpUrl().optional(),
  GIFT_URL: httpUrl().optional(),
  MARKETING_URL: httpUrl().optional(),
  CAPTCHA_PROVIDER: z.enum(['none', 'hcaptcha', 'turnstile']).default('none'),
  HCAPTCHA_SITE_KEY: z.string().optional(),
  TURNSTILE_SITE_KEY: z.string().optional(),
  VOICE_ENABLED: flag(false),
  SMS_MFA_ENABLED: flag(false),
  STRIPE_ENABLED: flag(false),
  SELF_HOSTED: flag(true),
  MANUAL_REVIEW_ENABLED: flag(false),
  GIF_PROVIDER: z.enum(['klipy', 'tenor']).default('klipy'),
  PUSH_PUBLIC_VAPID_KEY: z.string().optional(),
  APP_PUBLIC_SENTRY_DSN: z.string().default(''),
  FEDERATION_ENABLED: flag(false),
});

type Variables = z.infer<typeof variables>;

/**
 * A site key is required by the provider that uses it. Reads only these three variables, so it
 * is safe on a partly invalid environment.
 */
function checkCaptcha(config: Variables, ctx: z.RefinementCtx): void {
  if (config.CAPTCHA_PROVIDER === 'hcaptcha' && !config.HCAPTCHA_SITE_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['HCAPTCHA_SITE_KEY'],
      message: 'required when CAPTCHA_PROVIDER is hcaptcha',
    });
  }
  if (config.CAPTCHA_PROVIDER === 'turnstile' && !config.TURNSTILE_SITE_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['TURNSTILE_SITE_KEY'],
      message: 'required when CAPTCHA_PROVIDER is turnstile',
    });
  }
}

/**
 * Production never stores webhook secrets as given (docs/decisions.md#secrets-encrypted-at-rest),
 * as it never runs on the development S3 key.
 */
function checkSecretsKey(config: Variables, ctx: z.RefinementCtx): void {
  if (config.NODE_ENV !== 'production') return;
  if (config.SECRETS_ENCRYPTION_KEY === undefined && config.SECRETS_ENCRYPTION_KEYS === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['SECRETS_ENCRYPTION_KEY'],
      message: 'required when NODE_ENV is production: webhook secrets are encrypted with it (openssl rand -base64 32)',
    });
  }
}

/** A movable clock in production would let whoever writes the key switch rate limits off. */
function checkTestClock(config: Variables, ctx: z.RefinementCtx): void {
  if (config.RATE_LIMIT_CLOCK_KEY !== undefined && config.NODE_ENV === 'production') {
    ctx.addIssue({
      code: 'custom',
      path: ['RATE_LIMIT_CLOCK_KEY'],
      message: 'is for tests and must not be set when NODE_ENV is production',
    });
  }
}

export interface Endpoints {
  api: string;
  gateway: string;
  media: string;
  staticCdn: string;
  marketing: string;
  admin: string;
  invite: string;
  gift: string;
  webapp: string;
}

/**
 * The public URLs of the deployment. The API is PUBLIC_BASE_URL itself (it may carry a path
 * prefix such as `/api`); the others hang off its origin, so `https://example.com/api` gives
 * `wss://example.com/gateway`, `https://example.com/media`, the web app at the origin, …
 */
function resolveEndpoints(config: Variables): Endpoints {
  const api = (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  const origin = new URL(api).origin;
  const wsOrigin = origin.replace(/^http/, 'ws');
  return {
    api,
    gateway: config.GATEWAY_WS_URL ?? `${wsOrigin}/gateway`,
    media: config.MEDIA_URL ?? `${origin}/media`,
    staticCdn: config.STATIC_CDN_URL ?? `${origin}/static`,
    marketing: config.MARKETING_URL ?? origin,
    admin: config.ADMIN_URL ?? `${origin}/admin`,
    invite: config.INVITE_URL ?? `${origin}/invite`,
    gift: config.GIFT_URL ?? `${origin}/gift`,
    webapp: config.WEBAPP_URL ?? origin,
  };
}

export const gatewayConfigSchema = variables
  // Run even when other variables are bad, so one start reports every problem.
  .superRefine(checkCaptcha, { when: () => true })
  .superRefine(checkTestClock, { when: () => true })
  .superRefine(checkSecretsKey, { when: () => true })
  .transform((config) => ({ ...config, endpoints: resolveEndpoints(config) }));

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

/** Parses the environment, or prints every bad variable and exits non-zero. */
export function loadGatewayConfig(environment: Record<string, string | undefined> = process.env): GatewayConfig {
  return loadConfig(gatewayConfigSchema, environment, 'gateway');
}

export function parseGatewayConfig(environment: Record<string, string | undefined>): ParsedConfig<GatewayConfig> {
  return parseConfig(gatewayConfigSchema, environment);
}
