import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_DELIVERY_JOB, webhookBodyKey } from '@switchboard/contracts';
import { jobIdFor } from '@switchboard/queue';
import { call, createWebhookFixture, useTestEnvironment, waitFor, webhookMessages, type ServiceProcess, type WebhookFixture } from '@switchboard/testkit';
import { useGateway } from './helpers.ts';
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

function deliver(hook: WebhookFixture, deliveryId: string, payload: Record<string, unknown> = issueOpened()) {
  return call('POST', executeUrl(gateway, hook, '/codehost'), { body: payload, headers: { 'X-GitHub-Event': 'issues', 'X-GitHub-Delivery': deliveryId } });
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
    // Above the inline limit, so the body waits in S3; losing it makes the delivery fail for good.
    const large = { ...issueOpened(), padding: 'p'.repeat(100 * 1024) };
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
