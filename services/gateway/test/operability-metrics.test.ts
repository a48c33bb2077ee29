import { describe, expect, it } from 'vitest';
import { QUEUES } from '@switchboard/contracts';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { metricValue, scrapeMetrics } from '@switchboard/testkit/metrics';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import type { Answer } from '@switchboard/testkit/http';
import { ipBanChannel } from '../src/ip-bans/index.ts';
import { adminCall } from './admin-helpers.ts';
import { uniqueClient, useClockedGateway } from './helpers.ts';

const environment = useTestEnvironment();
// Rate limits on, deciding by a clock nobody moves: a bucket's budget is spent for good.
const { gateway } = useClockedGateway(environment, 'operability-metrics', { AUTH_FAILURE_BUDGET: '60' });

const scrape = () => scrapeMetrics(`${gateway.url}/metrics`);

/** Sends `request` until it answers 429 (at most `max` times); returns that answer. */
async function firstRefusal(request: () => Promise<Answer | Response>, max: number): Promise<Answer | Response> {
  for (let i = 0; i < max; i++) {
    const answer = await request();
    if (answer instanceof Response) await answer.arrayBuffer();
    if (answer.status === 429) return answer;
  }
  throw new Error(`no 429 within ${max} requests`);
}

describe('gateway operability metrics', () => {
  it('counts 429s by bucket name, never by client address or path', async () => {
    const client = uniqueClient();
    const refused = await firstRefusal(() => fetch(`${gateway.url}/v1/.well-known/service`, { headers: client }), 80);
    // instance:info (60 a minute) counts toward the global bucket (50 a second): whichever refused says so.
    const global = refused.headers.get('x-ratelimit-global');
    const { samples, text } = await scrape();
    expect(
      metricValue(samples, 'rate_limit_refusals_total', { bucket: 'instance:info', global: global! }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(client['X-Forwarded-For']);
  });

  it('counts the failure budget refusing bad admin keys under auth:failures', async () => {
    const headers = uniqueClient();
    await firstRefusal(
      () => adminCall(gateway.url, { method: 'GET', path: '/v1/admin/api-keys', key: 'not-a-key', headers }),
      80,
    );
    const { samples } = await scrape();
    expect(
      metricValue(samples, 'rate_limit_refusals_total', { bucket: 'auth:failures', global: 'false' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('exports the IP-ban index size and how long its full reloads take', async () => {
    const before = await waitFor(async () => {
      const { samples } = await scrape();
      return (metricValue(samples, 'ip_ban_reload_duration_seconds_count', { outcome: 'loaded' }) ?? 0) >= 1 && samples;
    });
    const reloadsBefore = metricValue(before, 'ip_ban_reload_duration_seconds_count', { outcome: 'loaded' })!;
    // A ban written behind the replica's back, and a message no replica can read: a full reload.
    await gateway.pool.query(
      `INSERT INTO ip_bans (id, network, display, reason) VALUES (4999999001, '198.51.100.0/24', '198.51.100.0/24', 'metrics')`,
    );
    await gateway.redis.publish(ipBanChannel(gateway.config.REDIS_PREFIX), 'reload, please');
    const after = await waitFor(async () => {
      const { samples } = await scrape();
      return (
        metricValue(samples, 'ip_ban_reload_duration_seconds_count', { outcome: 'loaded' })! > reloadsBefore && samples
      );
    });
    expect(metricValue(after, 'ip_ban_index_entries', { part: 'base' })).toBeGreaterThanOrEqual(1);
    expect(metricValue(after, 'ip_ban_index_entries', { part: 'overlay' })).toBe(0);
    expect(metricValue(after, 'ip_ban_index_bytes')).toBeGreaterThan(0);
    const seconds = metricValue(after, 'ip_ban_reload_duration_seconds_sum', { outcome: 'loaded' })!;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(60);
  });

  it("exports every queue's jobs by state, a delivery no worker has taken yet among them", async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const answer = await fetch(`${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}`, {
      method: 'POST',
      body: JSON.stringify({ content: 'waiting for a worker' }),
      headers: { 'content-type': 'application/json', ...uniqueClient() },
    });
    expect(answer.status).toBe(204);
    const { samples, text } = await scrape();
    for (const queue of Object.values(QUEUES)) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect(metricValue(samples, 'queue_jobs', { queue, state, service: 'gateway' }), `${queue} ${state}`).toEqual(
          expect.any(Number),
        );
      }
    }
    // No worker runs on this file's queues: the delivery waits.
    expect(
      metricValue(samples, 'queue_jobs', { queue: QUEUES.webhookDeliveries, state: 'waiting' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(hook.token);
  });
});
