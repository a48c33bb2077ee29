import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_DELIVERY_JOB, webhookDeliveryPayloadSchema, type WebhookDeliveryInput } from '@switchboard/contracts';
import {
  channelEvents,
  createWebhookFixture,
  deliveriesSettled,
  deliveryJobs,
  messagesOf,
  webhookDeliveriesQueue,
  webhookMessages,
} from '@switchboard/testkit/webhooks';
import { metricValue, scrapeMetrics } from '@switchboard/testkit/metrics';
import { QUICK_TAKEOVER } from '@switchboard/testkit/operations';
import { useJobStores } from '@switchboard/testkit/jobs';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useWorkersPerTest } from '@switchboard/testkit/use-worker';
import { waitFor } from '@switchboard/testkit/wait';
import type { ServiceProcess } from '@switchboard/testkit/processes';
import { ids, plainDelivery } from './support.ts';

// The worker process as deployed (services/webhook-worker/src/main.ts), handed deliveries as the
// gateway hands them: WEBHOOK_DELIVERY_JOB with the contract's payload, through its producer.
const environment = useTestEnvironment();
const stores = useJobStores(environment, { poolMax: 2 });
let queue: Queue;

/** A worker process on the file's stores, with quick takeover of a killed worker's jobs. */
const worker = useWorkersPerTest(environment, 'webhook-worker', { env: QUICK_TAKEOVER, signal: 'SIGKILL' });

/** A worker that pauses every delivery for a long time at `at`, to be killed there. */
function stuckWorker(at: 'before-store' | 'after-store'): Promise<ServiceProcess> {
  return worker({ WEBHOOK_TEST_DELAY_MS: '60000', WEBHOOK_TEST_DELAY_AT: at });
}

const deliver = (payload: WebhookDeliveryInput) => stores.producer.enqueue(WEBHOOK_DELIVERY_JOB, payload);

beforeAll(() => {
  queue = webhookDeliveriesQueue(stores.redis, environment.redisPrefix);
});

afterAll(async () => {
  await queue?.close();
});

describe('a SIGKILLed worker mid-delivery (at-least-once without duplicates)', () => {
  it('killed between the insert and the event: the next worker appends the event once, no second message', async () => {
    const hook = await createWebhookFixture(stores.pool);
    const first = await stuckWorker('after-store');
    const payload = plainDelivery(hook, 'survives a crash');
    await deliver(payload);
    const [stored] = await messagesOf(stores.pool, hook.webhookId);
    expect(stored!.id).toBe(payload.messageId);
    expect(await channelEvents(stores.redis, environment.eventsStreamKey, hook.channelId)).toEqual([]);
    await first.stop('SIGKILL');

    await worker();
    const events = await waitFor(async () => {
      const found = await channelEvents(stores.redis, environment.eventsStreamKey, hook.channelId);
      return found.length > 0 ? found : undefined;
    }, 10_000);
    expect(await deliveriesSettled(queue)).toBe(0);
    expect(await webhookMessages(stores.pool, hook.webhookId)).toHaveLength(1);
    expect(await channelEvents(stores.redis, environment.eventsStreamKey, hook.channelId)).toHaveLength(1);
    expect(events[0]!.message_id).toBe(stored!.id);
  });

  it('killed before the insert: the next worker stores the message once and announces it once', async () => {
    const hook = await createWebhookFixture(stores.pool);
    const first = await stuckWorker('before-store');
    await deliver(
      webhookDeliveryPayloadSchema.parse({
        webhookId: hook.webhookId,
        messageId: ids.next(),
        format: 'chatapp',
        body: { kind: 'inline', value: { text: 'recovered' } },
      }),
    );
    await waitFor(async () => (await deliveryJobs(queue, 'active')) === 1, 10_000);
    await first.stop('SIGKILL');
    expect(await webhookMessages(stores.pool, hook.webhookId)).toEqual([]);

    await worker();
    const [stored] = await messagesOf(stores.pool, hook.webhookId);
    expect(await deliveriesSettled(queue)).toBe(0);
    expect(stored!.content).toBe('recovered');
    expect(await webhookMessages(stores.pool, hook.webhookId)).toHaveLength(1);
    expect(await channelEvents(stores.redis, environment.eventsStreamKey, hook.channelId)).toHaveLength(1);
  });
});

describe('a webhook deleted before its delivery', () => {
  it('completes the job without posting', async () => {
    const hook = await createWebhookFixture(stores.pool);
    const { jobId } = await deliver(plainDelivery(hook, 'orphan'));
    await stores.pool.query('DELETE FROM webhooks WHERE id = $1', [hook.webhookId]);
    await worker();
    expect(await deliveriesSettled(queue)).toBe(0);
    expect(await webhookMessages(stores.pool, hook.webhookId)).toEqual([]);
    expect((await queue.getJob(jobId))?.returnvalue).toEqual({ outcome: 'webhook_gone' });
  });
});

describe("the worker's /metrics", () => {
  it('exports the delivery lag, accepted → stored, and the delivery job', async () => {
    const hook = await createWebhookFixture(stores.pool);
    const running = await worker();
    // The lag counts from the message id's time, fixed here as the gateway fixes it on accepting.
    const before = Date.now();
    const outcome = await stores.producer.enqueueAndWait(WEBHOOK_DELIVERY_JOB, plainDelivery(hook, 'measured'), {
      timeoutMs: 20_000,
    });
    const elapsedSeconds = (Date.now() - before) / 1000;
    expect(outcome.state).toBe('completed');
    const job = { queue: 'webhook-deliveries', job_name: 'webhook-delivery' };
    // The wait may end a moment before the worker counts the job completed: poll the scrape.
    const { samples, text } = await waitFor(async () => {
      const scrape = await scrapeMetrics(`http://127.0.0.1:${String(running.ready['healthPort'])}/metrics`);
      return (metricValue(scrape.samples, 'worker_jobs_completed_total', job) ?? 0) >= 1 && scrape;
    });
    const lag = { format: 'plain', service: 'webhook-worker' };
    // This process's only delivery.
    expect(metricValue(samples, 'webhook_delivery_lag_seconds_count', lag)).toBe(1);
    expect(metricValue(samples, 'webhook_delivery_lag_seconds_bucket', { ...lag, le: '+Inf' })).toBe(1);
    // In seconds, never negative, and no longer than this test saw it take.
    const lagSum = metricValue(samples, 'webhook_delivery_lag_seconds_sum', lag)!;
    expect(lagSum).toBeGreaterThanOrEqual(0);
    expect(lagSum).toBeLessThanOrEqual(elapsedSeconds);
    expect(
      metricValue(samples, 'worker_job_duration_seconds_count', { ...job, outcome: 'completed' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(hook.token);
    expect(text).not.toContain(hook.webhookId);
  });
});
