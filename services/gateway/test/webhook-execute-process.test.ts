import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@switchboard/db';
import { useTestEnvironment } from '@switchboard/testkit';
import { listeningPort, spawnGateway } from './helpers.ts';
import { createWebhookFixture, post, spawnWebhookWorker, type SpawnedWorker } from './webhook-execute-helpers.ts';

// The real processes, as `npm start` and the containers run them: main.ts of both services.
const environment = useTestEnvironment();
let pool: Pool;
let worker: SpawnedWorker;

beforeAll(async () => {
  pool = createPool({ connectionString: environment.databaseUrl, max: 1 });
  worker = await spawnWebhookWorker(environment);
});

afterAll(async () => {
  await worker?.stop();
  await pool?.end();
});

describe('the gateway process with a webhook worker process', () => {
  it('answers ?wait=true with the stored message, then shuts down cleanly (its wait listener closed)', async () => {
    const hook = await createWebhookFixture(pool);
    const gateway = spawnGateway(environment.processEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMITS_ENABLED: 'false' }));
    const port = await listeningPort(gateway);
    const answer = await post(`http://127.0.0.1:${port}/v1/webhooks/${hook.webhookId}/${hook.token}?wait=true`, { content: 'from main.ts' });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ content: 'from main.ts', webhook_id: hook.webhookId });
    gateway.child.kill('SIGTERM');
    expect(await gateway.exit).toBe(0);
    expect(gateway.stdout()).toContain('"drained":true');
    // Logs carry no webhook token (it is a path segment).
    expect(gateway.stdout()).not.toContain(hook.token);
    expect(worker.output()).not.toContain(hook.token);
  });
});
