import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { spawnWebhookWorker } from './webhook-execute-helpers.ts';

// The real processes, as `npm start` and the containers run them: main.ts of both services.
// The worker's own metrics are tested beside it (services/webhook-worker/test/process.test.ts).
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
});
