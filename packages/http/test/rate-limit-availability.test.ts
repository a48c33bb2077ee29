import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { call } from '@switchboard/testkit/http';
import { closedPort, silentServer } from '@switchboard/testkit/network';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import type { RateLimitBucket } from '@switchboard/contracts';
import { createLogger, type Logger } from '@switchboard/logger';
import { DEFAULT_RATE_LIMIT_TIMEOUT_MS, rateLimit } from '../src/rate-limit/index.ts';
import { header, readyRedis, requestPathRedis } from './rate-limit-helpers.ts';
import { startApp } from './start-app.ts';

const env = useTestEnvironment();
const ONE_PER_MINUTE: RateLimitBucket = { name: 'test:one', limit: 1, windowMs: 60_000, countsTowardGlobal: true };
const silentLogger = createLogger('rate-limit-test', 'silent');

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

describe('when Redis is unavailable the limiter fails open', () => {
  it.each([
    ['fails fast (no offline queue)', { enableOfflineQueue: false }],
    ['queues while offline (a worker-style client)', { enableOfflineQueue: true, maxRetriesPerRequest: null }],
  ] as const)('answers promptly when Redis refuses connections, with a client that %s', async (_name, options) => {
    const deadRedis = requestPathRedis(`redis://127.0.0.1:${await closedPort()}`, options);
    const warnings: unknown[] = [];
    const logger = { warn: (fields: unknown) => void warnings.push(fields) } as unknown as Logger;
    const app = await startApp((server) => {
      const limiter = rateLimit({ redis: deadRedis, prefix: env.redisPrefix, bucket: ONE_PER_MINUTE, logger });
      server.get('/x', limiter, (_req, res) => void res.json({ ok: true }));
    });
    try {
      for (let i = 0; i < 3; i++) {
        const { result, ms } = await timed(() => call('GET', `${app.url}/x`));
        expect(result.status).toBe(200);
        expect(header(result, 'x-ratelimit-limit')).toBeNull();
        expect(ms).toBeLessThan(DEFAULT_RATE_LIMIT_TIMEOUT_MS + 1000);
      }
      // One warning for the outage, not one per request.
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ bucket: 'test:one', reason: expect.any(String) });
    } finally {
      await app.close();
      deadRedis.disconnect();
    }
  });

  it('answers after the timeout when Redis accepts but never replies', async () => {
    const hung = await silentServer();
    // With no handshake and no ready check the client counts as ready as soon as TCP is up.
    const hungRedis = requestPathRedis(`redis://127.0.0.1:${hung.port}`, {
      enableReadyCheck: false,
      disableClientInfo: true,
    });
    await once(hungRedis, 'ready');
    const app = await startApp((server) => {
      const limiter = rateLimit({
        redis: hungRedis,
        prefix: env.redisPrefix,
        bucket: ONE_PER_MINUTE,
        timeoutMs: 300,
        logger: silentLogger,
      });
      server.get('/x', limiter, (_req, res) => void res.json({ ok: true }));
    });
    try {
      const { result, ms } = await timed(() => call('GET', `${app.url}/x`));
      expect(result.status).toBe(200);
      expect(ms).toBeGreaterThanOrEqual(250);
      expect(ms).toBeLessThan(3000);
    } finally {
      await app.close();
      hungRedis.disconnect();
      await hung.close();
    }
  });
});

describe('enabled', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await readyRedis(env.redisUrl);
  });
  afterAll(() => redis?.disconnect());

  it('limits by default and stops only when explicitly disabled', async () => {
    const app = await startApp((server) => {
      const bucket = ONE_PER_MINUTE;
      server.get('/on', rateLimit({ redis, prefix: env.redisPrefix, bucket }), (_req, res) => void res.json({}));
      server.get(
        '/off',
        rateLimit({ redis, prefix: env.redisPrefix, bucket, enabled: false }),
        (_req, res) => void res.json({}),
      );
    });
    try {
      expect((await call('GET', `${app.url}/on`)).status).toBe(200);
      expect((await call('GET', `${app.url}/on`)).status).toBe(429);
      const off = await call('GET', `${app.url}/off`);
      expect(off.status).toBe(200);
      expect(header(off, 'x-ratelimit-limit')).toBeNull();
    } finally {
      await app.close();
    }
  });
});
