import { createHmac, randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SECRET_KEYS } from '@switchboard/db';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture, type WebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { batchedLookup, lanesPerProcess } from '../src/routes/webhooks/execute/lookup.ts';
import { useGateway } from './helpers.ts';
import { deliveriesQueue, executeUrl, fixtureIds } from './webhook-execute-helpers.ts';

// No worker runs in this file: what is checked is what the gateway enqueued.
const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
let queue: Queue;

beforeAll(() => {
  queue = deliveriesQueue(gateway);
});

afterAll(async () => {
  await queue?.close();
});

const SECRET = 'batch secret';
const sign = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

const PING = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });

/** A ping delivery; `signature: 'valid'` signs it with SECRET, any other string is sent as is. */
function delivery(hook: Pick<WebhookFixture, 'webhookId' | 'token'>, deliveryId: string, signature?: string) {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-GitHub-Event': 'ping',
    'X-GitHub-Delivery': deliveryId,
  };
  if (signature !== undefined) headers['X-Hub-Signature-256'] = signature === 'valid' ? sign(PING) : signature;
  return call('POST', executeUrl(gateway, hook, '/codehost'), { body: PING, headers });
}

async function jobsOf(webhookId: string): Promise<string[]> {
  const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'delayed']);
  return jobs
    .filter((job) => job.data.webhookId === webhookId)
    .map((job) => String(job.data.deliveryId))
    .sort();
}

describe('concurrent requests share one lookup statement, each with its own answer', () => {
  it('mixes good and bad tokens, redeliveries, secrets and unknown webhooks in one burst', async () => {
    const [open, secret] = await Promise.all([
      createWebhookFixture(gateway.pool),
      createWebhookFixture(gateway.pool, { secret: SECRET }),
    ]);
    const wrongToken = { ...open, token: 'w'.repeat(64) };
    const unknown = { webhookId: fixtureIds.next(), token: open.token };
    const fresh = Array.from({ length: 10 }, () => randomUUID());
    const answers = await Promise.all([
      ...fresh.map((id) => delivery(open, id)),
      ...Array.from({ length: 5 }, () => delivery(open, 'redelivered')),
      ...Array.from({ length: 5 }, () => delivery(wrongToken, 'not-theirs')),
      delivery(unknown, 'nobody'),
      delivery(secret, 'signed-1', 'valid'),
      delivery(secret, 'signed-2', 'valid'),
      delivery(secret, 'forged', 'sha256=00'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([
      ...new Array(15).fill(204),
      ...new Array(6).fill(404),
      204,
      204,
      401,
    ]);
    // Every accepted delivery is queued with its key, once per key: the enqueue claims it.
    expect(await jobsOf(open.webhookId)).toEqual([...fresh, 'redelivered'].sort());
    // A forged signature queues nothing: the real delivery with that id is queued.
    expect(await jobsOf(secret.webhookId)).toEqual(['signed-1', 'signed-2']);
    expect((await delivery(secret, 'forged', 'valid')).status).toBe(204);
    expect(await jobsOf(secret.webhookId)).toEqual(['forged', 'signed-1', 'signed-2']);
  });
});

describe('the batched lookup', () => {
  it("shares the machine's two statement lanes among the gateway's processes, one each at least", () => {
    expect([1, 2, 3, 8].map(lanesPerProcess)).toEqual([2, 1, 1, 1]);
  });

  it('answers each lookup of a batch with its own webhook, null for an id nobody has', async () => {
    const [open, secret] = await Promise.all([
      createWebhookFixture(gateway.pool),
      createWebhookFixture(gateway.pool, { secret: SECRET }),
    ]);
    const lookUp = batchedLookup(gateway.pool, 4, 1, NO_SECRET_KEYS);
    const ids = [open.webhookId, fixtureIds.next(), secret.webhookId, open.webhookId];
    expect(await Promise.all(ids.map((id) => lookUp(id)))).toEqual([
      { id: open.webhookId, token: open.token, secret: null },
      null,
      { id: secret.webhookId, token: secret.token, secret: SECRET },
      { id: open.webhookId, token: open.token, secret: null },
    ]);
  });
});
