import { describe, expect, it } from 'vitest';
import { parseConfig } from '@switchboard/config';
import { webhookWorkerConfigSchema } from '../src/index.ts';

describe('configuration', () => {
  const base = { DATABASE_URL: 'postgres://localhost/x', REDIS_URL: 'redis://localhost:6379' };

  it('refuses the test delay hook outside NODE_ENV=test', () => {
    const parsed = parseConfig(webhookWorkerConfigSchema, {
      ...base,
      NODE_ENV: 'production',
      WEBHOOK_TEST_DELAY_MS: '5',
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join('\n')).toContain('WEBHOOK_TEST_DELAY_MS');
    expect(parseConfig(webhookWorkerConfigSchema, { ...base, NODE_ENV: 'test', WEBHOOK_TEST_DELAY_MS: '5' }).ok).toBe(
      true,
    );
  });

  it('has defaults for every webhook variable', () => {
    const parsed = parseConfig(webhookWorkerConfigSchema, base);
    expect(parsed.ok && parsed.config).toMatchObject({
      EVENTS_STREAM_MAX_LENGTH: 100_000,
      EVENTS_PUBLISHED_TTL_SECONDS: 600,
      WEBHOOK_TEST_DELAY_MS: 0,
    });
  });
});
