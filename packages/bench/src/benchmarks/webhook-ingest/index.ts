import { ratio } from '../../measure.ts';
import { forkHelper } from '../../processes.ts';
import type { Benchmark } from '../../types.ts';
import { measurePosts } from '../webhook-support/drive.ts';
import { realPushPayload, seedWebhook } from '../webhook-support/fixture.ts';
import { emptyQueue, openQueue } from '../webhook-support/queue.ts';

const BASELINE_ENTRY = new URL('./baseline.ts', import.meta.url).pathname;

/**
 * Code-host ingest of a real push: POST /v1/webhooks/{id}/{token}/codehost through a spawned
 * gateway (rate limiter, path checks, body read and validated once, token lookup, dedupe claim
 * of a fresh X-GitHub-Delivery, one job enqueued), against a bare express server that only
 * parses the same body. No worker runs: this is the gateway's accept path; the queued jobs are
 * removed afterwards.
 */
export const webhookIngest: Benchmark = {
  name: 'webhook-ingest',
  description: 'POST a real GitHub push to /codehost: gateway (validate, token, dedupe, enqueue) vs bare express JSON parsing',
  async run(context) {
    const env = await context.serviceEnv();
    const hook = await seedWebhook(env['DATABASE_URL']!);
    const body = realPushPayload();
    // One loopback client would only measure 429s with the real limits (200/min per webhook).
    const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false' });
    const baseline = await forkHelper('ingest baseline', BASELINE_ENTRY, {}, { NODE_ENV: 'production' }, (name, stop) =>
      context.cleanup.defer(name, stop),
    );
    const path = `/v1/webhooks/${hook.webhookId}/${hook.token}/codehost`;
    const load = { body, headers: { 'x-github-event': 'push' }, uniqueHeader: 'x-github-delivery' };
    context.log(`push payload ${body.length} bytes; measuring the gateway`);
    const gatewayResult = await measurePosts({ ...load, url: `${gateway.url}${path}` }, context.load);
    context.log('measuring the baseline');
    const baselineResult = await measurePosts({ ...load, url: `${baseline.url}${path}` }, context.load);
    const deliveries = openQueue(env);
    await emptyQueue(deliveries.queue).finally(() => deliveries.close());
    return {
      benchmark: 'webhook-ingest',
      notes: [
        `real push from @octokit/webhooks-examples, ${body.length} bytes, a fresh X-GitHub-Delivery per request (each one a new dedupe claim)`,
        'gateway: RATE_LIMITS_ENABLED=false (explicit), NODE_ENV=production, LOG_LEVEL=silent; no worker running (accept path only)',
        'per request the gateway does a webhook primary-key read, an INSERT into webhook_deliveries and one BullMQ add (body inline, < 64 KiB)',
        'gateway, baseline, PostgreSQL, Redis and autocannon share this machine: compare the ratio, not absolute numbers',
      ],
      targets: [
        { target: 'gateway /codehost', url: `${gateway.url}/v1/webhooks/{id}/{token}/codehost`, measurement: gatewayResult },
        { target: 'express JSON baseline', url: `${baseline.url}/v1/webhooks/{id}/{token}/codehost`, measurement: baselineResult },
      ],
      ratios: {
        'gateway/baseline rps': ratio(gatewayResult.requestsPerSecond, baselineResult.requestsPerSecond),
        'gateway/baseline p99 latency': ratio(gatewayResult.latencyMs.p99, baselineResult.latencyMs.p99),
      },
    };
  },
};
