import { describe, expect, it } from 'vitest';
import { ServiceExitError, spawnService } from '@switchboard/testkit/processes';
import { parseGatewayConfig } from '../src/index.ts';

const REQUIRED = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x', REDIS_URL: 'redis://127.0.0.1:6379' };

const BAD = {
  DATABASE_URL: 'mysql://nope',
  PORT: 'eighty',
  TRUSTED_PROXY_HOPS: '-1',
  RATE_LIMITS_ENABLED: 'maybe',
  PUBLIC_BASE_URL: 'ftp://example.com',
  GATEWAY_WS_URL: 'https://example.com/gateway',
  CAPTCHA_PROVIDER: 'hcaptcha',
  GIF_PROVIDER: 'giphy',
  FEDERATION_ENABLED: 'sometimes',
  ARCHIVE_RETENTION_DAYS: '0',
  ARCHIVE_LINK_TTL_SECONDS: '604801',
};
/**
 * REDIS_URL is left out on purpose (a missing variable is reported like a bad one), and
 * CAPTCHA_PROVIDER is valid but makes the absent HCAPTCHA_SITE_KEY required.
 */
const BAD_NAMES = [...Object.keys(BAD).filter((name) => name !== 'CAPTCHA_PROVIDER'), 'REDIS_URL', 'HCAPTCHA_SITE_KEY'];

describe('gateway configuration', () => {
  it('applies the documented defaults', () => {
    const parsed = parseGatewayConfig(REQUIRED);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.config).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      TRUSTED_PROXY_HOPS: 0,
      RATE_LIMITS_ENABLED: true,
      RATE_LIMIT_TIMEOUT_MS: 500,
      SHUTDOWN_TIMEOUT_MS: 10_000,
      CAPTCHA_PROVIDER: 'none',
      SELF_HOSTED: true,
      VOICE_ENABLED: false,
      GIF_PROVIDER: 'klipy',
      APP_PUBLIC_SENTRY_DSN: '',
      FEDERATION_ENABLED: false,
      ARCHIVE_RETENTION_DAYS: 365,
      ARCHIVE_LINK_TTL_SECONDS: 900,
    });
    expect(parsed.config.endpoints.api).toBe('http://localhost:8080');
    expect(parsed.config.endpoints.gateway).toBe('ws://localhost:8080/gateway');
  });

  it('derives endpoints from the origin of PUBLIC_BASE_URL unless overridden', () => {
    const parsed = parseGatewayConfig({
      ...REQUIRED,
      PUBLIC_BASE_URL: 'https://chat.example.com/api/',
      MEDIA_URL: 'https://media.example.net',
    });
    expect(parsed.ok && parsed.config.endpoints).toEqual({
      api: 'https://chat.example.com/api',
      gateway: 'wss://chat.example.com/gateway',
      media: 'https://media.example.net',
      staticCdn: 'https://chat.example.com/static',
      marketing: 'https://chat.example.com',
      admin: 'https://chat.example.com/admin',
      invite: 'https://chat.example.com/invite',
      gift: 'https://chat.example.com/gift',
      webapp: 'https://chat.example.com',
    });
  });

  it('reports every bad variable at once', () => {
    const parsed = parseGatewayConfig({ ...BAD });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const named = parsed.problems.map((problem) => problem.split(':')[0]);
    expect(named.sort()).toEqual([...BAD_NAMES].sort());
  });

  it('requires the site key of the chosen captcha provider', () => {
    const parsed = parseGatewayConfig({ ...REQUIRED, CAPTCHA_PROVIDER: 'turnstile' });
    expect(parsed).toEqual({ ok: false, problems: [expect.stringMatching(/^TURNSTILE_SITE_KEY: /)] });
    expect(parseGatewayConfig({ ...REQUIRED, CAPTCHA_PROVIDER: 'turnstile', TURNSTILE_SITE_KEY: 'k' }).ok).toBe(true);
  });

  it('refuses the tests-only rate-limit clock in production', () => {
    const clock = { ...REQUIRED, RATE_LIMIT_CLOCK_KEY: 'clock' };
    // Production also needs the key webhook secrets are sealed with: only the clock is wrong here.
    const sealing = { SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
    expect(parseGatewayConfig({ ...clock, ...sealing, NODE_ENV: 'production' })).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^RATE_LIMIT_CLOCK_KEY: /)],
    });
    expect(parseGatewayConfig({ ...clock, NODE_ENV: 'test' }).ok).toBe(true);
  });

  it('makes the process exit non-zero naming each bad variable, and never echoing a value', async () => {
    const exited = await spawnService('gateway', {
      ...BAD,
      S3_SECRET_ACCESS_KEY: 'x',
      DATABASE_URL: 'mysql://user:s3cret@db/x',
    }).catch((error: unknown) => error);
    expect(exited).toBeInstanceOf(ServiceExitError);
    const { status, stderr } = exited as ServiceExitError;
    expect(status.code).not.toBe(0);
    expect(status.code).not.toBeNull();
    for (const name of BAD_NAMES) expect(stderr).toContain(name);
    expect(stderr).not.toContain('s3cret');
  });

  it('exits non-zero naming each bad variable also as the primary of several processes, which reads only its own', async () => {
    const exited = await spawnService('gateway', { ...BAD, GATEWAY_PROCESSES: '2' }).catch((error: unknown) => error);
    expect(exited).toBeInstanceOf(ServiceExitError);
    const { status, stderr } = exited as ServiceExitError;
    expect(status.code).not.toBe(0);
    expect(status.code).not.toBeNull();
    for (const name of BAD_NAMES) expect(stderr).toContain(name);
  });
});
