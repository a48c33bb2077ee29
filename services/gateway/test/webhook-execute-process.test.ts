import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createWebhookFixture,
  metricValue,
  scrapeMetrics,
  spawnService,
  useTestEnvironment,
  useTestPool,
  waitFor,
  type ServiceProcess,
} from '@switchboard/testkit';
import { spawnWebhookWorker } from './webhook-execute-helpers.ts';

// The real processes, as `npm start` and the containers run them: main.ts of both services.
const environment = useTestEnvironment();
const pool = useTestPool(environment, 1);
let worker: ServiceProcess;

beforeAll(async () => {
  worker = await spawnWebhookWorker(environment);
});

afterAll(async () => {
  await worker?.stop();
});

describe('the gateway process with a webhook worker process', () => {
  it('answers ?wait=true with the stored message, then shuts down cleanly (its wait listener closed)', async () => {
    const hook = await createWebhookFixture(pool());
    const gateway = await spawnService(
      'gateway',
      environment.processEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMITS_ENABLED: 'false' }),
    );
    const answer = await call(
      'POST',
      `http://127.0.0.1:${gateway.ready['port']}/v1/webhooks/${hook.webhookId}/${hook.token}?wait=true`,
      {
        body: { content: 'from main.ts' },
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ content: 'from main.ts', webhook_id: hook.webhookId });
    expect(await gateway.stop()).toMatchObject({ code: 0 });
    expect(gateway.stdout()).toContain('"drained":true');
    // Logs carry no webhook token (it is a path segment).
    expect(gateway.stdout()).not.toContain(hook.token);
    expect(worker.output()).not.toContain(hook.token);
  });

  it("exports the delivery lag, accepted → stored, and the delivery job, on the worker's /metrics", async () => {
    const hook = await createWebhookFixture(pool());
    const gateway = await spawnService(
      'gateway',
      environment.processEnv({ PORT: '0', HOST: '127.0.0.1', RATE_LIMITS_ENABLED: 'false' }),
    );
    try {
      const answer = await call(
        'POST',
        `http://127.0.0.1:${gateway.ready['port']}/v1/webhooks/${hook.webhookId}/${hook.token}?wait=true`,
        {
          body: { content: 'measured' },
        },
      );
      expect(answer.status).toBe(200);
      const job = { queue: 'webhook-deliveries', job_name: 'webhook-delivery' };
      // The answer may come a moment before the worker counts the job completed: poll the scrape.
      const { samples, text } = await waitFor(async () => {
        const scrape = await scrapeMetrics(`http://127.0.0.1:${String(worker.ready['healthPort'])}/metrics`);
        return (metricValue(scrape.samples, 'worker_jobs_completed_total', job) ?? 0) >= 1 && scrape;
      });
      const lag = { format: 'plain', service: 'webhook-worker' };
      const deliveries = metricValue(samples, 'webhook_delivery_lag_seconds_count', lag)!;
      expect(deliveries).toBeGreaterThanOrEqual(1);
      expect(metricValue(samples, 'webhook_delivery_lag_seconds_bucket', { ...lag, le: '+Inf' })).toBe(deliveries);
      // Every delivery here was waited for (?wait=true): seconds at most, never negative.
      const lagSum = metricValue(samples, 'webhook_delivery_lag_seconds_sum', lag)!;
      expect(lagSum).toBeGreaterThanOrEqual(0);
      expect(lagSum / deliveries).toBeLessThan(30);
      expect(
        metricValue(samples, 'worker_job_duration_seconds_count', { ...job, outcome: 'completed' }),
      ).toBeGreaterThanOrEqual(1);
      expect(text).not.toContain(hook.token);
      expect(text).not.toContain(hook.webhookId);
    } finally {
      await gateway.stop();
    }
  });
});
