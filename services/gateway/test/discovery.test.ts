import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ADMIN_ROUTES, GLOBAL_RATE_LIMIT, LIMITS, RATE_LIMIT_BUCKETS } from '@switchboard/contracts';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminFeatures, buildDiscoveryDocument, DISCOVERY_PATHS, mergeAdminHandlers, routeKey } from '../src/index.ts';
import { markerArea } from './admin-helpers.ts';
import { gatewayConfig, uniqueClient, useGateway } from './helpers.ts';

const environment = useTestEnvironment();

const CONFIG = {
  PUBLIC_BASE_URL: 'https://chat.example.com/api',
  INVITE_URL: 'https://inv.example.net',
  CAPTCHA_PROVIDER: 'hcaptcha',
  HCAPTCHA_SITE_KEY: 'site-key-1',
  VOICE_ENABLED: 'true',
  GIF_PROVIDER: 'tenor',
  PUSH_PUBLIC_VAPID_KEY: 'vapid-public',
  APP_PUBLIC_SENTRY_DSN: 'https://public@sentry.example.com/1',
  TRUSTED_PROXY_HOPS: '1',
};

const gateway = useGateway(environment, CONFIG);
// Every admin route has a handler here, so every admin feature works.
const everyRoute = useGateway(environment, CONFIG, { adminAreas: [markerArea] });

/** docs/decisions.md#fluxer-discovery-document, written out independently of the implementation. */
const nullableString = z.string().nullable();
const referenceShape = z.object({
  api_code_version: z.number().int(),
  endpoints: z.strictObject({
    api: z.string(),
    api_client: z.string(),
    api_public: z.string(),
    gateway: z.string(),
    media: z.string(),
    static_cdn: z.string(),
    marketing: z.string(),
    admin: z.string(),
    invite: z.string(),
    gift: z.string(),
    webapp: z.string(),
  }),
  captcha: z.strictObject({
    provider: z.enum(['hcaptcha', 'turnstile', 'none']),
    hcaptcha_site_key: nullableString,
    turnstile_site_key: nullableString,
  }),
  features: z.object({
    sms_mfa_enabled: z.boolean(),
    voice_enabled: z.boolean(),
    stripe_enabled: z.boolean(),
    self_hosted: z.boolean(),
    manual_review_enabled: z.boolean(),
  }),
  gif: z.strictObject({ provider: z.enum(['klipy', 'tenor']) }),
  sso: z.strictObject({
    enabled: z.boolean(),
    enforced: z.boolean(),
    display_name: nullableString,
    redirect_uri: z.string(),
  }),
  limits: z.strictObject({
    version: z.literal(2),
    traitDefinitions: z.array(z.string()),
    rules: z.array(
      z.strictObject({
        id: z.string(),
        filters: z
          .object({ traits: z.array(z.string()).optional(), guildFeatures: z.array(z.string()).optional() })
          .optional(),
        overrides: z.record(z.string(), z.number()),
      }),
    ),
    defaultsHash: z.string().regex(/^[0-9a-z]+$/),
  }),
  push: z.strictObject({ public_vapid_key: nullableString }),
  app_public: z.strictObject({ sentry_dsn: z.string() }),
  federation: z.strictObject({ enabled: z.literal(true), version: z.number().int() }).optional(),
});

function discovery(path: string = DISCOVERY_PATHS[0], init: RequestInit = {}): Promise<Response> {
  return fetch(`${gateway.url}${path}`, {
    ...init,
    headers: { ...uniqueClient(), ...(init.headers as Record<string, string>) },
  });
}

describe('discovery document', () => {
  it("is served identically at /v1/.well-known/service, /.well-known/service and Fluxer's /.well-known/fluxer", async () => {
    expect(DISCOVERY_PATHS).toEqual([
      '/v1/.well-known/service',
      '/.well-known/service',
      '/v1/.well-known/fluxer',
      '/.well-known/fluxer',
    ]);
    const [versioned, ...others] = await Promise.all(DISCOVERY_PATHS.map((path) => discovery(path)));
    expect(versioned!.status).toBe(200);
    expect(versioned!.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = await versioned!.text();
    for (const other of others) {
      expect(other.status).toBe(200);
      expect(await other.text()).toBe(body);
      expect(other.headers.get('etag')).toBe(versioned!.headers.get('etag'));
    }
  });

  it('has the shape of the reference and the values of the configuration', async () => {
    const document = (await (await discovery()).json()) as Record<string, unknown>;
    const parsed = referenceShape.parse(document);
    expect(parsed.api_code_version).toBe(1);
    expect(parsed.endpoints).toEqual({
      api: 'https://chat.example.com/api',
      api_client: 'https://chat.example.com/api',
      api_public: 'https://chat.example.com/api',
      gateway: 'wss://chat.example.com/gateway',
      media: 'https://chat.example.com/media',
      static_cdn: 'https://chat.example.com/static',
      marketing: 'https://chat.example.com',
      admin: 'https://chat.example.com/admin',
      invite: 'https://inv.example.net',
      gift: 'https://chat.example.com/gift',
      webapp: 'https://chat.example.com',
    });
    expect(parsed.captcha).toEqual({ provider: 'hcaptcha', hcaptcha_site_key: 'site-key-1', turnstile_site_key: null });
    expect(document['features']).toEqual({
      sms_mfa_enabled: false,
      voice_enabled: true,
      stripe_enabled: false,
      self_hosted: true,
      manual_review_enabled: false,
      webhook_formats: ['codehost', 'errortracker', 'chatapp'],
      archives: true,
      asset_purge: true,
      bulk_operations: true,
    });
    expect(parsed.gif).toEqual({ provider: 'tenor' });
    expect(parsed.sso).toEqual({
      enabled: false,
      enforced: false,
      display_name: null,
      redirect_uri: 'https://chat.example.com/auth/sso/callback',
    });
    expect(parsed.push).toEqual({ public_vapid_key: 'vapid-public' });
    expect(parsed.app_public).toEqual({ sentry_dsn: 'https://public@sentry.example.com/1' });
    expect(document).not.toHaveProperty('federation');
  });

  it('publishes the limits the service enforces, from the limits and rate-limit tables', async () => {
    const document = (await (await discovery()).json()) as ReturnType<typeof buildDiscoveryDocument>;
    expect(document.limits.traitDefinitions).toEqual([]);
    expect(document.limits.rules).toEqual([
      {
        id: 'default',
        overrides: {
          max_message_length: LIMITS.messages.maxContentLength,
          max_embeds_per_message: LIMITS.messages.maxEmbeds,
          max_webhooks_per_channel: LIMITS.webhooks.perChannel,
          max_webhooks_per_guild: LIMITS.webhooks.perGuild,
          avatar_max_size: LIMITS.webhooks.avatarMaxBytes,
        },
      },
    ]);
    expect(document.limits.rules[0]!.overrides).toMatchObject({
      max_message_length: 2000,
      max_embeds_per_message: 10,
      max_webhooks_per_channel: 15,
      max_webhooks_per_guild: 1000,
    });
    const limits = document.service_limits as Record<string, Record<string, unknown>>;
    expect(limits['body']).toEqual({
      admin_bytes: 1_048_576,
      avatar_body_bytes: 15_029_592,
      management_bytes: 1_048_576,
      inbound_webhook_bytes: 26_214_400,
    });
    expect(limits['bans']).toMatchObject({ list: { min: 1, max: 500, default: 200 }, max_values_per_request: 1000 });
    expect(limits['audit_logs']).toMatchObject({ list: { min: 1, max: 200, default: 50 } });
    expect(limits['bulk']).toEqual({ max_user_ids: LIMITS.bulk.maxUserIds });
    expect(limits['api_keys']).toEqual({
      name_min_length: 1,
      name_max_length: 100,
      expires_in_days: { min: 1, max: 365 },
      max_acls: 100,
    });
    const rateLimits = limits['rate_limits'] as { enabled: boolean; global: unknown; buckets: Record<string, unknown> };
    expect(rateLimits.enabled).toBe(true);
    expect(rateLimits.global).toEqual({ limit: GLOBAL_RATE_LIMIT.limit, window_ms: GLOBAL_RATE_LIMIT.windowMs });
    expect(Object.keys(rateLimits.buckets).sort()).toEqual(Object.keys(RATE_LIMIT_BUCKETS).sort());
    expect(rateLimits.buckets['instance:info']).toEqual({ limit: 60, window_ms: 60_000, counts_toward_global: true });
  });

  it('publishes the failure budget the deployment enforces', () => {
    const document = buildDiscoveryDocument(
      gatewayConfig(environment, { AUTH_FAILURE_BUDGET: '250', AUTH_FAILURE_WINDOW_MS: '30000' }),
      adminFeatures(new Map()),
    );
    const rateLimits = (document.service_limits as { rate_limits: { buckets: Record<string, unknown> } }).rate_limits;
    expect(rateLimits.buckets['auth:failures']).toEqual({ limit: 250, window_ms: 30_000, counts_toward_global: false });
  });

  it('publishes the bulk size the deployment enforces', () => {
    const document = buildDiscoveryDocument(
      gatewayConfig(environment, { BULK_MAX_USER_IDS: '250' }),
      adminFeatures(new Map()),
    );
    expect((document.service_limits as Record<string, unknown>)['bulk']).toEqual({ max_user_ids: 250 });
  });

  it('reports federation only when it is enabled; the limits hash does not depend on it', () => {
    const off = buildDiscoveryDocument(gatewayConfig(environment), adminFeatures(new Map()));
    const on = buildDiscoveryDocument(
      gatewayConfig(environment, { FEDERATION_ENABLED: 'true' }),
      adminFeatures(new Map()),
    );
    expect(off).not.toHaveProperty('federation');
    expect(on.federation).toEqual({ enabled: true, version: 1 });
    expect(on.limits.defaultsHash).toBe(off.limits.defaultsHash);
  });
});

describe('discovery admin features', () => {
  it('reports archives, asset_purge and bulk_operations once the admin router has handlers for them', async () => {
    const response = await fetch(`${everyRoute.url}${DISCOVERY_PATHS[0]}`, { headers: uniqueClient() });
    const { features } = (await response.json()) as { features: Record<string, unknown> };
    expect(features).toMatchObject({ archives: true, asset_purge: true, bulk_operations: true });
  });

  it('turns a feature on only when every one of its routes has a handler', () => {
    const handlersFor = (routes: typeof ADMIN_ROUTES) =>
      mergeAdminHandlers([Object.fromEntries(routes.map((route) => [routeKey(route), () => undefined]))]);
    const off = { archives: false, asset_purge: false, bulk_operations: false };
    const prefixes = {
      archives: '/v1/admin/archives/',
      asset_purge: '/v1/admin/assets/',
      bulk_operations: '/v1/admin/bulk/',
    };
    for (const [feature, prefix] of Object.entries(prefixes)) {
      const routes = ADMIN_ROUTES.filter((route) => route.path.startsWith(prefix));
      expect(routes.length, feature).toBeGreaterThan(0);
      expect(adminFeatures(handlersFor(routes))).toEqual({ ...off, [feature]: true });
      // The trigger alone (POST) is not the feature while another of its routes has no handler.
      if (routes.length > 1) expect(adminFeatures(handlersFor(routes.slice(0, -1)))).toEqual(off);
    }
  });
});

describe('discovery caching', () => {
  it('is publicly cacheable for 60 s with a strong ETag', async () => {
    const response = await discovery();
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
  });

  it('answers 304 when If-None-Match holds the ETag, in any accepted form', async () => {
    const etag = (await discovery()).headers.get('etag')!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, `W/"other",W/${etag}`, '*']) {
      const response = await discovery(DISCOVERY_PATHS[1], { headers: { 'If-None-Match': header } });
      expect(response.status, header).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    }
  });

  it('answers 200 when If-None-Match holds other tags', async () => {
    const response = await discovery(DISCOVERY_PATHS[0], { headers: { 'If-None-Match': '"stale", W/"older"' } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { api_code_version: number }).api_code_version).toBe(1);
  });

  it('answers HEAD with the headers and no body', async () => {
    const get = await discovery();
    const head = await discovery(DISCOVERY_PATHS[0], { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(await head.text()).toBe('');
  });
});

describe('discovery CORS and methods', () => {
  it('allows any origin', async () => {
    const response = await discovery(DISCOVERY_PATHS[1], { headers: { Origin: 'https://client.example.org' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('ETag');
  });

  it('answers a preflight with 204 and the allowed methods', async () => {
    for (const path of DISCOVERY_PATHS) {
      const response = await discovery(path, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://client.example.org',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'if-none-match',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
      expect(response.headers.get('access-control-allow-headers')).toBe('if-none-match');
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('refuses other methods with 405 and an Allow header', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await discovery(DISCOVERY_PATHS[0], {
        method,
        body: '{}',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(await response.json()).toEqual({ code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed.' });
    }
  });
});

describe('discovery rate limit', () => {
  it('carries the instance:info bucket headers on every answer', async () => {
    const client = uniqueClient();
    const first = await discovery(DISCOVERY_PATHS[0], { headers: client });
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    const etag = first.headers.get('etag')!;
    const notModified = await discovery(DISCOVERY_PATHS[1], { headers: { ...client, 'If-None-Match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('x-ratelimit-remaining')).toBe('58');
  });

  it('answers 429 RATE_LIMITED once a client used its 60 requests a minute', async () => {
    const client = uniqueClient();
    // Two bursts a second apart stay under the global 50/s limit, so the route bucket decides.
    // The bucket refills one request a second, so a few more may pass before the refusal.
    for (const [index, burst] of [45, 15].entries()) {
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, 1000));
      const answers = await Promise.all(
        Array.from({ length: burst }, () => discovery(DISCOVERY_PATHS[0], { headers: client })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(burst).fill(200));
    }
    let limited: Response | undefined;
    for (let attempt = 0; attempt < 4 && !limited; attempt++) {
      const answer = await discovery(DISCOVERY_PATHS[1], { headers: client });
      if (answer.status === 429) limited = answer;
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited!.headers.get('x-ratelimit-global')).toBe('false');
    expect(limited!.headers.get('x-ratelimit-limit')).toBe('60');
    expect(limited!.headers.get('access-control-allow-origin')).toBe('*');
    expect(await limited!.json()).toMatchObject({
      code: 'RATE_LIMITED',
      global: false,
      retry_after: expect.any(Number),
    });
    const other = await discovery();
    expect(other.status).toBe(200);
  });
});
