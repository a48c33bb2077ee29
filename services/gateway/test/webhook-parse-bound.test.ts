import { expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useGateway } from './helpers.ts';

// A body above WEBHOOK_PARSE_HERE_MAX_BYTES is parsed on a thread, and its answer is bounded by
// WEBHOOK_PARSE_TIMEOUT_MS however busy the threads are. A 1 ms bound is shorter than any
// multi-megabyte parse can be, so the bound, not the verdict, answers here.
const environment = useTestEnvironment();
const gateway = useGateway(environment, {
  RATE_LIMITS_ENABLED: 'false',
  WEBHOOK_PARSE_HERE_MAX_BYTES: '1024',
  WEBHOOK_PARSE_TIMEOUT_MS: '1',
});

it('answers a body its parse thread did not check in time with 503 and Retry-After, and small bodies as ever', async () => {
  const hook = await createWebhookFixture(gateway.pool);
  const url = `${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}`;
  const large = await call('POST', url, { body: { content: 'large', nonce: 'n'.repeat(4 * 1024 * 1024) } });
  expect(large.status).toBe(503);
  expect(large.headers.get('retry-after')).not.toBeNull();
  expect(large.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  // The thread's late verdict is dropped; the event loop's own path is untouched.
  expect((await call('POST', url, { body: { content: 'small' } })).status).toBe(204);
  const again = await call('POST', url, { body: { content: 'large again', nonce: 'n'.repeat(4 * 1024 * 1024) } });
  expect(again.status).toBe(503);
});
