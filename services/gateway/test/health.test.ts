import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createPool } from '@switchboard/db';
import { createLogger } from '@switchboard/logger';
import { closeRedis, createRedis } from '@switchboard/redis';
import { createStorage, storageOptionsFromConfig } from '@switchboard/storage';
import { closedPort, serveOnFreePort, silentServer } from '@switchboard/testkit/network';
import { metricValue, scrapeMetrics } from '@switchboard/testkit/metrics';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { createApp } from '../src/index.ts';
import { gatewayConfig, useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment);

/**
 * A gateway whose dependencies point where the test says; each is a real client, so a
 * closed port is a refused connection and a silent server is a hang. It makes ids under the
 * file gateway's lease (one process, one lease).
 */
/**
 * A gateway on its own clients. Its readiness checks give up after `checkTimeoutMs`: short
 * where a test waits for a hung dependency's timeout, long enough elsewhere for a fresh
 * connection to a store on a loaded machine (a check that gives up there is a false "timeout").
 */
async function gatewayWith(
  urls: { database?: string; redis?: string; s3?: string },
  { isDraining, checkTimeoutMs = 5_000 }: { isDraining?: () => boolean; checkTimeoutMs?: number } = {},
) {
  const config = gatewayConfig(environment, { READY_CHECK_TIMEOUT_MS: String(checkTimeoutMs) });
  const pool = createPool({ connectionString: urls.database ?? config.DATABASE_URL, max: 1 });
  const redis = createRedis(urls.redis ?? config.REDIS_URL, { role: 'client' });
  // As main.ts does: a fresh request-path client refuses commands until it is connected.
  if (!urls.redis) await once(redis, 'ready');
  const storage = createStorage({ ...storageOptionsFromConfig(config), ...(urls.s3 ? { endpoint: urls.s3 } : {}) });
  const snowflakeLease = gateway.snowflakeLease;
  const served = await serveOnFreePort(
    createApp({ config, logger: createLogger('test', 'silent'), pool, redis, storage, snowflakeLease, isDraining }),
  );
  return {
    url: served.url,
    close: async () => {
      await served.close();
      await Promise.allSettled([pool.end(), closeRedis(redis)]);
      storage.close();
    },
  };
}

describe('health', () => {
  it('answers /healthz while the process is up', async () => {
    const response = await fetch(`${gateway.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 when PostgreSQL, the IP-ban index, Redis and the bucket answer and a worker id is leased', async () => {
    const response = await fetch(`${gateway.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      checks: { postgres: 'ok', ip_bans: 'ok', redis: 'ok', s3: 'ok', snowflake: 'ok' },
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('stays ready, as degraded, while only Redis and S3 are down: every replica shares them', async () => {
    const port = await closedPort();
    // Polled until ready: a check that gives up early only costs another poll.
    const partial = await gatewayWith(
      { redis: `redis://127.0.0.1:${port}`, s3: `http://127.0.0.1:${port}` },
      { checkTimeoutMs: 300 },
    );
    try {
      // Without Redis the first IP-ban load first waits for the subscription it cannot get.
      const response = await waitFor(async () => {
        const answer = await fetch(`${partial.url}/readyz`);
        return answer.status === 200 && answer;
      }, 15_000);
      const body = (await response.json()) as { status: string; checks: Record<string, string> };
      expect(body.status).toBe('degraded');
      expect(body.checks).toMatchObject({ postgres: 'ok', ip_bans: 'ok' });
      expect(body.checks.redis).not.toBe('ok');
      expect(body.checks.s3).not.toBe('ok');
    } finally {
      await partial.close();
    }
  });

  it('answers /readyz 503 with Retry-After naming each dependency that is down when PostgreSQL is', async () => {
    const port = await closedPort();
    // Every check here is expected to fail: a short bound only makes the failures come sooner.
    const broken = await gatewayWith(
      {
        database: `postgres://postgres@127.0.0.1:${port}/none`,
        redis: `redis://127.0.0.1:${port}`,
        s3: `http://127.0.0.1:${port}`,
      },
      { checkTimeoutMs: 300 },
    );
    try {
      const response = await fetch(`${broken.url}/readyz`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { code: string; status: string; checks: Record<string, string> };
      expect(body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 'unavailable' });
      expect(body.checks.postgres).not.toBe('ok');
      // The first load of the IP bans reads PostgreSQL too.
      expect(body.checks.ip_bans).not.toBe('ok');
      expect(body.checks.redis).not.toBe('ok');
      expect(body.checks.s3).not.toBe('ok');
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(response.headers.get('retry-after')).toBe('5');
      // Liveness does not depend on them.
      expect((await fetch(`${broken.url}/healthz`)).status).toBe(200);
      // Nor do metrics, which show the IP-ban load failing (rather than wait for it and 503),
      // within a bound however long Redis takes not to answer the queue counts.
      const failedLoads = await waitFor(async () => {
        const { samples } = await scrapeMetrics(`${broken.url}/metrics`);
        return (
          (metricValue(samples, 'ip_ban_reload_duration_seconds_count', { outcome: 'failed' }) ?? 0) >= 1 && samples
        );
      }, 15_000);
      expect(metricValue(failedLoads, 'ip_ban_reload_duration_seconds_count', { outcome: 'loaded' })).toBeUndefined();
      // Counts that cannot be read are left out, not reported as zero.
      expect(metricValue(failedLoads, 'queue_jobs', { queue: 'webhook-deliveries', state: 'waiting' })).toBeUndefined();
    } finally {
      await broken.close();
    }
  });

  it('reports only the failing dependency, and a hung one within the timeout', async () => {
    const silent = await silentServer();
    const hung = await gatewayWith({ s3: `http://127.0.0.1:${silent.port}` }, { checkTimeoutMs: 1_000 });
    try {
      await waitFor(async () => (await fetch(`${hung.url}/readyz`)).ok);
      const started = Date.now();
      const response = await fetch(`${hung.url}/readyz`);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        status: 'degraded',
        checks: { postgres: 'ok', ip_bans: 'ok', redis: 'ok', s3: 'timeout', snowflake: 'ok' },
      });
    } finally {
      await hung.close();
      await silent.close();
    }
  });

  it('answers /readyz 503 while draining, so load balancers stop sending traffic', async () => {
    const draining = await gatewayWith({}, { isDraining: () => true });
    try {
      const response = await fetch(`${draining.url}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        status: 'draining',
        checks: { postgres: 'ok', redis: 'ok', s3: 'ok' },
      });
      expect(response.headers.get('retry-after')).toBe('5');
    } finally {
      await draining.close();
    }
  });

  it('serves Prometheus metrics: answers timed by route template, never by raw path', async () => {
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    await fetch(`${gateway.url}/v1/webhooks/123456789012345678/a-secret-token`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    const answer = await fetch(`${gateway.url}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/plain');
    const text = await answer.text();
    const healthz = text
      .split('\n')
      .find((line) => line.startsWith('http_request_duration_seconds_count{') && line.includes('route="/healthz"'));
    expect(healthz).toMatch(/method="GET"/);
    expect(healthz).toMatch(/status="200"/);
    expect(healthz).toMatch(/service="gateway"/);
    expect(text).toContain('route="/v1/webhooks/:webhook_id/:token"');
    expect(text).not.toContain('a-secret-token');
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});
