import type { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  channelEvents,
  createWebhookFixture,
  QUICK_TAKEOVER,
  useTestEnvironment,
  waitFor,
  webhookMessages,
  type ServiceProcess,
} from '@switchboard/testkit';
import { useGateway } from './helpers.ts';
import {
  deliveriesQueue,
  deliveriesSettled,
  deliveryJobs,
  executeUrl,
  messagesOf,
  spawnWebhookWorker,
} from './webhook-execute-helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', WEBHOOK_WAIT_TIMEOUT_MS: '300' });
let queue: Queue;
const workers: ServiceProcess[] = [];

async function worker(extra: Record<string, string> = {}): Promise<ServiceProcess> {
  const started = await spawnWebhookWorker(environment, { ...QUICK_TAKEOVER, ...extra });
  workers.push(started);
  return started;
}

/** A worker that pauses every delivery for a long time at `at`, to be killed there. */
function stuckWorker(at: 'before-store' | 'after-store'): Promise<ServiceProcess> {
  return worker({ WEBHOOK_TEST_DELAY_MS: '60000', WEBHOOK_TEST_DELAY_AT: at });
}

beforeAll(() => {
  queue = deliveriesQueue(gateway);
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((running) => running.stop('SIGKILL')));
});

afterAll(async () => {
  await queue?.close();
});

describe('a SIGKILLed worker mid-delivery (at-least-once without duplicates)', () => {
  it('killed between the insert and the event: the next worker appends the event once, no second message', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const first = await stuckWorker('after-store');
    expect((await call('POST', executeUrl(gateway, hook), { body: { content: 'survives a crash' } })).status).toBe(204);
    const [stored] = await messagesOf(gateway.pool, hook.webhookId);
    expect(await channelEvents(gateway.redis, environment.eventsStreamKey, hook.channelId)).toEqual([]);
    await first.stop('SIGKILL');

    await worker();
    const events = await waitFor(async () => {
      const found = await channelEvents(gateway.redis, environment.eventsStreamKey, hook.channelId);
      return found.length > 0 ? found : undefined;
    }, 10_000);
    expect(await deliveriesSettled(queue)).toBe(0);
    expect(await webhookMessages(gateway.pool, hook.webhookId)).toHaveLength(1);
    expect(await channelEvents(gateway.redis, environment.eventsStreamKey, hook.channelId)).toHaveLength(1);
    expect(events[0]!.message_id).toBe(stored!.id);
  });

  it('killed before the insert: the next worker stores the message once and announces it once', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const first = await stuckWorker('before-store');
    expect((await call('POST', executeUrl(gateway, hook, '/slack'), { body: { text: 'recovered' } })).status).toBe(200);
    await waitFor(async () => (await deliveryJobs(queue, 'active')) === 1, 10_000);
    await first.stop('SIGKILL');
    expect(await webhookMessages(gateway.pool, hook.webhookId)).toEqual([]);

    await worker();
    const [stored] = await messagesOf(gateway.pool, hook.webhookId);
    expect(await deliveriesSettled(queue)).toBe(0);
    expect(stored!.content).toBe('recovered');
    expect(await webhookMessages(gateway.pool, hook.webhookId)).toHaveLength(1);
    expect(await channelEvents(gateway.redis, environment.eventsStreamKey, hook.channelId)).toHaveLength(1);
  });
});

describe('?wait=true beyond the bound, and a webhook deleted before its delivery', () => {
  it('answers 504 MESSAGE_DELIVERY_TIMEOUT with the message id, which is then stored exactly once', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    await worker({ WEBHOOK_TEST_DELAY_MS: '1000', WEBHOOK_TEST_DELAY_AT: 'before-store' });
    const answer = await call('POST', `${executeUrl(gateway, hook)}?wait=true`, { body: { content: 'slow' } });
    expect(answer.status).toBe(504);
    expect(answer.body.code).toBe('MESSAGE_DELIVERY_TIMEOUT');
    const [stored] = await messagesOf(gateway.pool, hook.webhookId);
    expect(stored!.id).toBe(answer.body.message_id);
    expect(await deliveriesSettled(queue)).toBe(0);
    expect(await webhookMessages(gateway.pool, hook.webhookId)).toHaveLength(1);
  });

  it('completes the job without posting when the webhook was deleted after the request', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    expect((await call('POST', executeUrl(gateway, hook), { body: { content: 'orphan' } })).status).toBe(204);
    await gateway.pool.query('DELETE FROM webhooks WHERE id = $1', [hook.webhookId]);
    await worker();
    expect(await deliveriesSettled(queue)).toBe(0);
    expect(await webhookMessages(gateway.pool, hook.webhookId)).toEqual([]);
    const completed = await queue.getCompleted(0, 10);
    expect(completed.map((job) => job.returnvalue)).toContainEqual({ outcome: 'webhook_gone' });
  });
});
