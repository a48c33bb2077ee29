import { createHmac, randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashCredential } from '@switchboard/auth';
import type { Pool } from '@switchboard/db';
import { call, createWebhookFixture, useTestEnvironment, waitFor, type WebhookFixture } from '@switchboard/testkit';
import { batchedClaim, batchedLookup, lanesPerProcess } from '../src/routes/webhooks/execute/lookup.ts';
import { useGateway } from './helpers.ts';
import { deliveriesQueue, executeUrl, fixtureIds } from './webhook-execute-helpers.ts';

// No worker runs in this file: what is checked is what the gateway claimed and enqueued.
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
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-GitHub-Event': 'ping', 'X-GitHub-Delivery': deliveryId };
  if (signature !== undefined) headers['X-Hub-Signature-256'] = signature === 'valid' ? sign(PING) : signature;
  return call('POST', executeUrl(gateway, hook, '/codehost'), { body: PING, headers });
}

async function claims(pool: Pool, webhookId: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>('SELECT delivery_id AS id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY 1', [webhookId]);
  return rows.map((row) => row.id);
}

async function jobsOf(webhookId: string): Promise<string[]> {
  const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'delayed']);
  return jobs.filter((job) => job.data.webhookId === webhookId).map((job) => String(job.data.deliveryId)).sort();
}

/**
 * Runs `statements` while a transaction that deleted `hook` holds its row lock, and commits the
 * deletion once one of them waits for that lock: the webhook existed when they began.
 */
async function whileDeleting<T>(hook: WebhookFixture, statements: () => Promise<T>): Promise<T> {
  const deleting = await gateway.pool.connect();
  try {
    await deleting.query('BEGIN');
    await deleting.query('DELETE FROM webhooks WHERE id = $1', [hook.webhookId]);
    const running = statements();
    await waitFor(async () => {
      const { rows } = await gateway.pool.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return rows[0]!.waiting > 0;
    }, 10_000);
    await deleting.query('COMMIT');
    return await running;
  } finally {
    deleting.release();
  }
}

describe('concurrent requests share one lookup statement, each with its own answer', () => {
  it('mixes good and bad tokens, duplicates, secrets and unknown webhooks in one burst', async () => {
    const [open, secret] = await Promise.all([createWebhookFixture(gateway.pool), createWebhookFixture(gateway.pool, { secret: SECRET })]);
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
    expect(await claims(gateway.pool, open.webhookId)).toEqual([...fresh, 'redelivered'].sort());
    expect(await jobsOf(open.webhookId)).toEqual([...fresh, 'redelivered'].sort());
    // A forged signature claims nothing: the real delivery with that id still posts.
    expect(await claims(gateway.pool, secret.webhookId)).toEqual(['signed-1', 'signed-2']);
    expect((await delivery(secret, 'forged', 'valid')).status).toBe(204);
    expect(await jobsOf(secret.webhookId)).toEqual(['forged', 'signed-1', 'signed-2']);
  });
});

describe('the batched lookup', () => {
  it("shares the machine's two statement lanes among the gateway's processes, one each at least", () => {
    expect([1, 2, 3, 8].map(lanesPerProcess)).toEqual([2, 1, 1, 1]);
  });

  it('a webhook deleted while its batch waits to claim: the batch runs again request by request, that one finds no webhook', async () => {
    const [kept, deleted] = await Promise.all([createWebhookFixture(gateway.pool), createWebhookFixture(gateway.pool)]);
    const lookup = (hook: WebhookFixture) => ({
      webhookId: hook.webhookId,
      tokenHash: hashCredential(hook.token),
      claim: { deliveryId: randomUUID(), source: 'codehost' as const, messageId: fixtureIds.next() },
    });
    // One statement for both: it still sees the webhook, and its claim waits for the delete's row lock.
    const lookUp = batchedLookup(gateway.pool, 4, 2);
    const [first, second] = await whileDeleting(deleted, () => Promise.all([lookUp(lookup(kept)), lookUp(lookup(deleted))]));
    expect(first).toEqual({ webhook: { id: kept.webhookId, token: kept.token, secret: null }, claimed: true });
    expect(second).toEqual({ webhook: null, claimed: undefined });
    expect(await claims(gateway.pool, kept.webhookId)).toHaveLength(1);
  });

  it('claims of webhooks from memory: one statement, a duplicate false, a webhook deleted meanwhile null', async () => {
    const [kept, deleted] = await Promise.all([createWebhookFixture(gateway.pool), createWebhookFixture(gateway.pool)]);
    const claim = (hook: WebhookFixture, deliveryId: string) => ({ webhookId: hook.webhookId, deliveryId, source: 'codehost' as const, messageId: fixtureIds.next() });
    const claimOne = batchedClaim(gateway.pool, 4, 2);
    const answers = await whileDeleting(deleted, () =>
      Promise.all([claimOne(claim(kept, 'a')), claimOne(claim(kept, 'a')), claimOne(claim(kept, 'b')), claimOne(claim(deleted, 'a'))]),
    );
    // Of two claims of one key exactly one is taken, whichever the statement inserted first.
    expect([answers[0], answers[1]].sort()).toEqual([false, true]);
    expect(answers.slice(2)).toEqual([true, null]);
    expect(await claims(gateway.pool, kept.webhookId)).toEqual(['a', 'b']);
    expect(await claims(gateway.pool, deleted.webhookId)).toEqual([]);
  });
});
