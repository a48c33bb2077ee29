import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_DELIVERY_JOB, webhookBodyKey } from '@switchboard/contracts';
import { createProducer, jobIdFor } from '@switchboard/queue';
import { closeRedis, createRedis } from '@switchboard/redis';
import {
  call,
  createWebhookFixture,
  startFaultProxy,
  useTestEnvironment,
  waitFor,
  webhookMessages,
  type FaultMode,
  type ServiceProcess,
  type WebhookFixture,
} from '@switchboard/testkit';
import { startGateway, useGateway, type RunningGateway } from './helpers.ts';
import { deliveriesQueue, deliveriesSettled, executeUrl, fixtureIds, messagesOf, spawnWebhookWorker } from './webhook-execute-helpers.ts';

const require = createRequire(import.meta.url);
const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
let queue: Queue;
const workers: ServiceProcess[] = [];

beforeAll(() => {
  queue = deliveriesQueue(gateway);
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((running) => running.stop()));
});

afterAll(async () => {
  await queue?.close();
});

async function startWorker(): Promise<void> {
  workers.push(await spawnWebhookWorker(environment));
}

/** GitHub's own "issues opened" example payload (@octokit/webhooks-examples). */
function issueOpened(): Record<string, unknown> {
  const definitions = require('@octokit/webhooks-examples/api.github.com/index.json') as Array<{ name: string; examples: Record<string, unknown>[] }>;
  const example = definitions.find((definition) => definition.name === 'issues')!.examples.find((payload) => payload['action'] === 'opened');
  return structuredClone(example!);
}

function deliver(hook: WebhookFixture, deliveryId: string, payload: Record<string, unknown> = issueOpened(), to: { url: string } = gateway) {
  return call('POST', executeUrl(to, hook, '/codehost'), { body: payload, headers: { 'X-GitHub-Event': 'issues', 'X-GitHub-Delivery': deliveryId } });
}

async function claimOf(hook: WebhookFixture, deliveryId: string): Promise<string | null | undefined> {
  const { rows } = await gateway.pool.query<{ message_id: string | null }>(
    'SELECT message_id FROM webhook_deliveries WHERE webhook_id = $1 AND delivery_id = $2',
    [hook.webhookId, deliveryId],
  );
  return rows[0] === undefined ? undefined : rows[0].message_id;
}

/** A claim as a gateway leaves it when it dies between the claim and the enqueue, `ageSeconds` ago. */
async function claimLeftBehind(hook: WebhookFixture, deliveryId: string, ageSeconds: number): Promise<string> {
  const messageId = fixtureIds.next();
  await gateway.pool.query(
    `INSERT INTO webhook_deliveries (webhook_id, delivery_id, source, message_id, created_at)
     VALUES ($1, $2, 'codehost', $3, now() - make_interval(secs => $4))`,
    [hook.webhookId, deliveryId, messageId, ageSeconds],
  );
  return messageId;
}

describe('X-GitHub-Delivery claims (decisions §12: released when a delivery fails for good)', () => {
  it('gives the key back when its delivery fails for good, so the code host redelivery posts', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const deliveryId = randomUUID();
    // An issue text above the inline limit (the renderer reads it), so the body waits in S3;
    // losing it makes the delivery fail for good.
    const large = issueOpened();
    (large['issue'] as Record<string, unknown>)['body'] = 'p'.repeat(100 * 1024);
    expect((await deliver(hook, deliveryId, large)).status).toBe(204);
    const messageId = await claimOf(hook, deliveryId);
    expect(messageId).toEqual(expect.any(String));
    await gateway.storage.deleteObjects([webhookBodyKey(hook.webhookId, messageId!)]);

    await startWorker();
    expect(await deliveriesSettled(queue)).toBeGreaterThanOrEqual(1);
    await waitFor(async () => (await claimOf(hook, deliveryId)) === undefined, 10_000);
    expect(await webhookMessages(gateway.pool, hook.webhookId)).toEqual([]);

    // GitHub's "Redeliver": the same id, the whole body again.
    expect((await deliver(hook, deliveryId)).status).toBe(204);
    const [stored] = await messagesOf(gateway.pool, hook.webhookId);
    expect(await claimOf(hook, deliveryId)).toBe(stored!.id);
  });

  it('lets a redelivery take over a claim whose gateway died before enqueueing, and only such a claim', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const orphan = await claimLeftBehind(hook, 'orphaned', 120);
    // As young as a claim whose enqueue may still be under way: left alone.
    const young = await claimLeftBehind(hook, 'young', 0);
    // Old, but its job is still in the queue (a long backlog, a retry waiting): alive.
    const queued = await claimLeftBehind(hook, 'queued', 120);
    const waitingJob = await queue.add(
      WEBHOOK_DELIVERY_JOB.name,
      { webhookId: hook.webhookId, messageId: queued, format: 'plain', body: { kind: 'inline', value: { content: 'still queued' } } },
      { jobId: jobIdFor(WEBHOOK_DELIVERY_JOB, { messageId: queued }), delay: 600_000 },
    );
    try {
      for (const deliveryId of ['orphaned', 'young', 'queued']) expect((await deliver(hook, deliveryId)).status).toBe(204);
      await startWorker();
      const [stored] = await messagesOf(gateway.pool, hook.webhookId);
      expect(await claimOf(hook, 'orphaned')).toBe(stored!.id);
      expect(stored!.id).not.toBe(orphan);
      expect(await claimOf(hook, 'young')).toBe(young);
      expect(await claimOf(hook, 'queued')).toBe(queued);
      // Two more redeliveries of the taken-over key are ordinary duplicates.
      for (let round = 0; round < 2; round += 1) expect((await deliver(hook, 'orphaned')).status).toBe(204);
      await waitFor(async () => {
        const counts = await queue.getJobCounts('waiting', 'active');
        return (counts.waiting ?? 0) + (counts.active ?? 0) === 0;
      });
      expect(await webhookMessages(gateway.pool, hook.webhookId)).toHaveLength(1);
    } finally {
      await waitingJob.remove();
    }
  });
});

describe('an enqueue whose answer was lost (the job may or may not exist)', () => {
  /**
   * A second gateway whose producer reaches Redis through a fault proxy: `mute` carries the add
   * out and drops its answer, `cut` resets the connection under it. Either way the gateway
   * answers 503, and the sender retries with the same X-GitHub-Delivery.
   */
  async function gatewayBehindProxy(): Promise<{ faulty: RunningGateway; setMode(mode: FaultMode): void; close(): Promise<void> }> {
    const target = new URL(environment.redisUrl);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
    const connection = createRedis(proxy.urlFor(environment.redisUrl), { role: 'producer', commandTimeoutMs: 300 });
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

        // A job that may exist keeps its claim, dated for the retry to settle (given back, the
        // retry would post a second message); an add that never left gave it back.
        if (mode === 'mute') expect(await claimOf(hook, deliveryId)).toEqual(expect.any(String));
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
});
