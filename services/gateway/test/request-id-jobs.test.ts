import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { waitFor } from '@switchboard/testkit/wait';

// Tracing off (no OTEL_* variable): the request id still follows the request into its job
// (docs/decisions.md#request-ids-and-traces-across-the-queue). Real processes, as `npm start` runs them.
const environment = useTestEnvironment();
const pool = useTestPool(environment, 1);
let gateway: ServiceProcess;
let worker: ServiceProcess;

beforeAll(async () => {
  [gateway, worker] = await Promise.all([
    spawnService(
      'gateway',
      environment.processEnv({ PORT: '0', HOST: '127.0.0.1', GATEWAY_PROCESSES: '1', RATE_LIMITS_ENABLED: 'false' }),
    ),
    // Debug: the line a completed job writes.
    spawnService('webhook-worker', environment.processEnv({ LOG_LEVEL: 'debug' })),
  ]);
});

afterAll(async () => {
  await Promise.all([gateway?.stop(), worker?.stop()]);
});

const linesOf = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the request id across the queue, tracing off', () => {
  it('the worker’s line for the job carries the X-Request-Id the gateway answered with, and no trace ids', async () => {
    const hook = await createWebhookFixture(pool());
    const answer = await call(
      'POST',
      `http://127.0.0.1:${gateway.ready['port']}/v1/webhooks/${hook.webhookId}/${hook.token}`,
      { body: { content: 'which request?' } },
    );
    expect(answer.status).toBe(204);
    const requestId = answer.headers.get('x-request-id');
    expect(requestId).toBeTruthy();

    const line = await waitFor(
      async () =>
        linesOf(worker.stdout()).find((each) => each['msg'] === 'job completed' && each['requestId'] === requestId),
      20_000,
    );
    expect(line).toMatchObject({ jobName: 'webhook-delivery', queue: 'webhook-deliveries' });
    expect(line).not.toHaveProperty('trace_id');
  });

  it('an X-Request-Id the caller sent is the one the job carries', async () => {
    const hook = await createWebhookFixture(pool());
    const requestId = `caller-${hook.webhookId}`;
    const answer = await call(
      'POST',
      `http://127.0.0.1:${gateway.ready['port']}/v1/webhooks/${hook.webhookId}/${hook.token}`,
      { body: { content: 'mine' }, headers: { 'x-request-id': requestId } },
    );
    expect(answer.headers.get('x-request-id')).toBe(requestId);
    await waitFor(
      async () =>
        linesOf(worker.stdout()).some((each) => each['msg'] === 'job completed' && each['requestId'] === requestId),
      20_000,
    );
  });
});
