import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookBodyKey } from '@switchboard/contracts';
import { createProducer } from '@switchboard/queue';
import { closeRedis, createRedis } from '@switchboard/redis';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture, webhookMessages, type WebhookFixture } from '@switchboard/testkit/webhooks';
import { startFaultProxy, type FaultMode } from '@switchboard/testkit/fault-proxy';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { startGateway, useGateway, type RunningGateway } from './helpers.ts';
import {
  deliveriesQueue,
  deliveriesSettled,
  executeUrl,
  messagesOf,
  useWebhookWorkersPerTest,
} from './webhook-execute-helpers.ts';

const require = createRequire(import.meta.url);
const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
let queue: Queue;
const startWorker = useWebhookWorkersPerTest(environment);

beforeAll(() => {
  queue = deliveriesQueue(gateway);
});

afterAll(async () => {
  await queue?.close();
});

/** GitHub's own "issues opened" example payload (@octokit/webhooks-examples). */
function issueOpened(): Record<string, unknown> {
  const definitions = require('@octokit/webhooks-examples/api.github.com/index.json') as Array<{
    name: string;
    examples: Record<string, unknown>[];
  }>;
  const example = definitions
    .find((definition) => definition.name === 'issues')!
    .examples.find((payload) => payload['action'] === 'opened');
  return structuredClone(example!);
}

/** The same, with an issue text above the inline limit (the renderer reads it): its body waits in S3. */
function largeIssueOpened(): Record<string, unknown> {
  const payload = issueOpened();
  (payload['issue'] as Record<string, unknown>)['body'] = 'p'.repeat(100 * 1024);
  return payload;
}

function deliver(
  hook: WebhookFixture,
  deliveryId: string,
  payload: Record<string, unknown> = issueOpened(),
  to: { url: string } = gateway,
) {
  return call('POST', executeUrl(to, hook, '/codehost'), {
    body: payload,
    headers: { 'X-GitHub-Event': 'issues', 'X-GitHub-Delivery': deliveryId },
  });
}

/** The stored message that holds the webhook's delivery id (the worker stores it on the message), if any. */
async function keyHolderOf(hook: WebhookFixture, deliveryId: string): Promise<string | undefined> {
  const { rows } = await gateway.pool.query<{ id: string }>(
    'SELECT id FROM messages WHERE webhook_id = $1 AND delivery_id = $2',
    [hook.webhookId, deliveryId],
  );
  return rows[0]?.id;
}

/** The jobs queued for the webhook's delivery `deliveryId`, oldest first (no worker running). */
async function queuedDeliveries(hook: WebhookFixture, deliveryId: string) {
  const jobs = await queue.getJobs(['waiting'], 0, -1, true);
  return jobs.filter((job) => job.data.webhookId === hook.webhookId && job.data.deliveryId === deliveryId);
}

describe('X-GitHub-Delivery keys (held by a stored message only)', () => {
  it('takes no key for a delivery that posts nothing, so the code host redelivery posts', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const deliveryId = randomUUID();
    // A body lost from S3 (only an earlier attempt deletes one): the delivery posts nothing.
    const large = largeIssueOpened();
    expect((await deliver(hook, deliveryId, large)).status).toBe(204);
    const [job] = await queuedDeliveries(hook, deliveryId);
    await gateway.storage.deleteObjects([webhookBodyKey(hook.webhookId, job!.data.messageId)]);

    await startWorker();
    // Completed, not failed for good: a job never fails for a deleted body.
    expect(await deliveriesSettled(queue)).toBe(0);
    expect(await keyHolderOf(hook, deliveryId)).toBeUndefined();
    expect(await webhookMessages(gateway.pool, hook.webhookId)).toEqual([]);

    // GitHub's "Redeliver": the same id, the whole body again.
    expect((await deliver(hook, deliveryId)).status).toBe(204);
    const [stored] = await messagesOf(gateway.pool, hook.webhookId);
    expect(await keyHolderOf(hook, deliveryId)).toBe(stored!.id);
  });

  it('claims the key with the enqueue: redeliveries while the first job is queued add nothing, one by one or all at once', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const deliveryId = randomUUID();
    for (let round = 0; round < 3; round += 1) expect((await deliver(hook, deliveryId)).status).toBe(204);
    const together = await Promise.all(Array.from({ length: 8 }, () => deliver(hook, deliveryId)));
    expect(together.map((answer) => answer.status)).toEqual(Array(8).fill(204));
    const queued = await queuedDeliveries(hook, deliveryId);
    expect(queued).toHaveLength(1);

    await startWorker();
    const [stored] = await messagesOf(gateway.pool, hook.webhookId);
    expect(stored!.id).toBe(queued[0]!.data.messageId);
    await deliveriesSettled(queue);
    // Once that job is done, the stored message holds the key: a later redelivery is queued
    // and the worker drops it.
    expect((await deliver(hook, deliveryId)).status).toBe(204);
    await deliveriesSettled(queue);
    expect(await webhookMessages(gateway.pool, hook.webhookId)).toHaveLength(1);
    expect(await keyHolderOf(hook, deliveryId)).toBe(stored!.id);
  });

  it('deletes the S3 body of a redelivery the enqueue dropped', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const deliveryId = randomUUID();
    const large = largeIssueOpened();
    for (let round = 0; round < 3; round += 1) expect((await deliver(hook, deliveryId, large)).status).toBe(204);
    expect(await queuedDeliveries(hook, deliveryId)).toHaveLength(1);

    await startWorker();
    await waitFor(async () => (await webhookMessages(gateway.pool, hook.webhookId)).length === 1, 10_000);
    await deliveriesSettled(queue);
    // The job's own body went with its message; the two redeliveries' bodies went after their answers.
    const left = await gateway.storage.deletePrefix(`webhook-bodies/${hook.webhookId}/`);
    expect(left.deleted).toEqual([]);
  });
});

describe('an enqueue whose answer was lost (the job may or may not exist)', () => {
  /**
   * A second gateway whose producer reaches Redis through a fault proxy: `mute` carries the add
   * out and drops its answer, `cut` resets the connection under it. Either way the gateway
   * answers 503, and the sender retries with the same X-GitHub-Delivery.
   */
  async function gatewayBehindProxy(): Promise<{
    faulty: RunningGateway;
    setMode(mode: FaultMode): void;
    close(): Promise<void>;
  }> {
    const target = new URL(environment.redisUrl);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
    // Long enough for an add on a busy machine (the warm deliveries must pass), short enough
    // that a muted one is given up within the test.
    const connection = createRedis(proxy.urlFor(environment.redisUrl), {
      role: 'producer',
      commandTimeoutMs: 2_000,
    });
    const producer = createProducer({ connection, redisPrefix: gateway.config.REDIS_PREFIX });
    const faulty = await startGateway(environment, { RATE_LIMITS_ENABLED: 'false' }, { producer });
    return {
      faulty,
      setMode: (mode) => proxy.setMode(mode),
      close: async () => {
        await faulty.close();
        await closeRedis(connection);
        await proxy.close();
      },
    };
  }

  for (const mode of ['mute', 'cut'] as const) {
    it(`posts exactly one message when the sender retries (${mode === 'mute' ? 'the job was added' : 'nothing was added'})`, async () => {
      const hook = await createWebhookFixture(gateway.pool);
      const deliveryId = randomUUID();
      const { faulty, setMode, close } = await gatewayBehindProxy();
      try {
        // Warm: the producer's queue is set up before the fault.
        expect((await deliver(hook, randomUUID(), issueOpened(), faulty)).status).toBe(204);
        setMode(mode);
        expect((await deliver(hook, deliveryId, issueOpened(), faulty)).status).toBe(503);
        setMode('pass');
        const added = (await queue.getJobCounts('waiting')).waiting;
        expect(added).toBe(mode === 'mute' ? 2 : 1);

        // The job that may exist keeps its body; whichever of it and the retry runs first
        // takes the key, and the other posts nothing.
        expect((await deliver(hook, deliveryId)).status).toBe(204);
        await startWorker();
        await waitFor(async () => (await webhookMessages(gateway.pool, hook.webhookId)).length >= 2, 10_000);
        await deliveriesSettled(queue);
        expect((await deliver(hook, deliveryId)).status).toBe(204);
        await deliveriesSettled(queue);
        expect(await webhookMessages(gateway.pool, hook.webhookId)).toHaveLength(2);
      } finally {
        await close();
      }
    });
  }

  it('leaves the body: the job that was added posts, and a body whose job never was is swept', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const warm = await createWebhookFixture(gateway.pool);
    const { faulty, setMode, close } = await gatewayBehindProxy();
    // No X-GitHub-Delivery: nothing but the body tells the added job and the retry apart.
    const push = (to: { url: string }) =>
      call('POST', executeUrl(to, hook, '/codehost'), {
        body: largeIssueOpened(),
        headers: { 'X-GitHub-Event': 'issues' },
      });
    const bodies = async () => {
      const keys: string[] = [];
      for await (const page of gateway.storage.listObjects(`webhook-bodies/${hook.webhookId}/`))
        keys.push(...page.map((object) => object.key));
      return keys;
    };
    try {
      expect((await deliver(warm, randomUUID(), issueOpened(), faulty)).status).toBe(204);
      // The add is carried out, its answer dropped.
      setMode('mute');
      expect((await push(faulty)).status).toBe(503);
      setMode('pass');
      // The producer's connection back (the timed-out one is replaced), so the next add is written.
      await waitFor(async () => (await deliver(warm, randomUUID(), issueOpened(), faulty)).status === 204, 10_000);
      // The add is written but never reaches Redis: held by the blackhole, then reset with it.
      setMode('blackhole');
      expect((await push(faulty)).status).toBe(503);
      setMode('cut');
      setMode('pass');
    } finally {
      await close();
    }
    // The muted add went through, the blackholed one did not; both bodies are still in S3.
    const jobs = (await queue.getJobs(['waiting'], 0, -1, true)).filter((job) => job.data.webhookId === hook.webhookId);
    expect(jobs).toHaveLength(1);
    const added = jobs[0]!;
    expect(added.data.body).toMatchObject({ kind: 'stored' });
    expect(await bodies()).toHaveLength(2);
    expect(await bodies()).toContain(added.data.body.key);

    await startWorker({ WEBHOOK_BODY_ORPHAN_AGE_MS: '1000', WEBHOOK_BODY_SWEEP_INTERVAL_MS: '200' });
    const [stored] = await messagesOf(gateway.pool, hook.webhookId);
    expect(stored!.id).toBe(added.data.messageId);
    await waitFor(async () => (await queue.getJobState(added.id!)) === 'completed', 10_000);
    // The delivered body went with its message, the orphan with the sweep, once a second old.
    await waitFor(async () => (await bodies()).length === 0, 15_000);
    expect(await webhookMessages(gateway.pool, hook.webhookId)).toHaveLength(1);
  });
});
