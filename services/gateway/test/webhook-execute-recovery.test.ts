import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture, webhookMessages } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useGateway } from './helpers.ts';
import {
  deliveriesQueue,
  deliveriesSettled,
  executeUrl,
  messagesOf,
  useWebhookWorkersPerTest,
} from './webhook-execute-helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', WEBHOOK_WAIT_TIMEOUT_MS: '300' });
let queue: Queue;
const worker = useWebhookWorkersPerTest(environment, 'SIGKILL');

beforeAll(() => {
  queue = deliveriesQueue(gateway);
});

afterAll(async () => {
  await queue?.close();
});

// What a worker does when SIGKILLed mid-delivery or handed a deleted webhook's delivery is the
// webhook worker's, tested beside it (services/webhook-worker/test/process.test.ts).
describe('?wait=true beyond the bound', () => {
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
});
