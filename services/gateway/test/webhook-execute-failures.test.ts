import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_BUCKETS } from '@switchboard/contracts';
import { call, type Answer } from '@switchboard/testkit/http';
import { createWebhookFixture, type WebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { uniqueClient, useClockedGateway } from './helpers.ts';

// No worker runs in this file: every case is decided by the gateway before or at enqueue.
const environment = useTestEnvironment();
/** The address's budget at the size the shared-sender report was measured with (61st failure → 429). */
const ADDRESS_BUDGET = 60;
const { gateway, clock } = useClockedGateway(environment, 'execute-failures', {
  AUTH_FAILURE_BUDGET: String(ADDRESS_BUDGET),
});
const WEBHOOK_BUDGET = RATE_LIMIT_BUCKETS['webhook:failures::webhook_id'];

const BAD_TOKEN = 'x'.repeat(64);
let unknownIds = 9_100_000_000;

function execute(
  hook: Pick<WebhookFixture, 'webhookId' | 'token'>,
  client: Record<string, string>,
  body: unknown,
  suffix = '',
  headers: Record<string, string> = {},
) {
  return call('POST', `${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}${suffix}`, {
    body,
    headers: { ...headers, ...client },
  });
}

const valid = (hook: WebhookFixture, client: Record<string, string>) => execute(hook, client, { content: 'x' });
/** A push whose body is not an object: 400 before the token is looked at, from a token holder all the same. */
const brokenPush = (hook: WebhookFixture, client: Record<string, string>) =>
  execute(hook, client, [1, 2], '/github', { 'X-GitHub-Event': 'push' });
const guess = (client: Record<string, string>) =>
  execute({ webhookId: String(unknownIds++), token: BAD_TOKEN }, client, { content: 'x' });

function countStatuses(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

describe('the address budget counts guesses, not tenants', () => {
  it("webhook A draws 500 bad bodies a minute from one address while webhook B's deliveries from it all pass", async () => {
    const client = uniqueClient();
    const [a, b] = [await createWebhookFixture(gateway.pool), await createWebhookFixture(gateway.pool)];
    const broken: Answer[] = [];
    const delivered: Answer[] = [];
    // 500 broken pushes to A and 50 messages to B (under B's 60 a minute), spread over one minute.
    const requests = 550;
    for (let index = 0; index < requests; index += 1) {
      if (index % 11 === 10) delivered.push(await valid(b, client));
      else broken.push(await brokenPush(a, client));
      await clock.advance(60_000 / requests);
    }
    expect(delivered.map((answer) => answer.status)).toEqual(Array(50).fill(204));
    // A is slowed by its own budget: its burst, then about one a second.
    const counts = countStatuses(broken);
    expect(Object.keys(counts).sort()).toEqual(['400', '429']);
    expect(counts[400]).toBeGreaterThanOrEqual(WEBHOOK_BUDGET.limit);
    expect(counts[400]).toBeLessThanOrEqual(2 * WEBHOOK_BUDGET.limit + 2);
    const refusal = broken.find((answer) => answer.status === 429)!;
    expect(refusal.headers.get('x-ratelimit-bucket')).toBe(`webhook:failures:${a.webhookId}`);
    // A guess from that address still finds the address's budget whole.
    expect((await guess(client)).status).toBe(404);
  });

  it("a token holder's refusals spend its webhook's budget: that webhook waits, from that address only, before its body is read", async () => {
    const client = uniqueClient();
    const hook = await createWebhookFixture(gateway.pool);
    for (let index = 0; index < WEBHOOK_BUDGET.limit; index += 1) {
      // Bodies that do not validate, each refused from the holder of the token.
      const answer = index % 2 === 0 ? await brokenPush(hook, client) : await execute(hook, client, {});
      expect(answer.status).toBe(400);
    }
    const refused = await valid(hook, client);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', global: false });
    expect(refused.headers.get('x-ratelimit-bucket')).toBe(`webhook:failures:${hook.webhookId}`);
    const large = await execute(hook, client, JSON.stringify({ content: 'x'.repeat(20 * 1024 * 1024) }), '', {
      'Content-Type': 'application/json',
    });
    expect(large.status).toBe(429);
    // Another address, another webhook from this address: untouched.
    expect((await valid(hook, uniqueClient())).status).toBe(204);
    expect((await valid(await createWebhookFixture(gateway.pool), client)).status).toBe(204);
    // One refill later, one more.
    await clock.advance(WEBHOOK_BUDGET.windowMs / WEBHOOK_BUDGET.limit);
    expect((await valid(hook, client)).status).toBe(204);
  });

  it('a bad signature spends the webhook budget of a token holder, the address budget on an unknown webhook', async () => {
    const hook = await createWebhookFixture(gateway.pool, { secret: 'shh' });
    const push = (target: Pick<WebhookFixture, 'webhookId' | 'token'>, client: Record<string, string>) =>
      execute(target, client, { zen: 'z', hook_id: 1 }, '/github', {
        'X-GitHub-Event': 'ping',
        'X-Hub-Signature-256': `sha256=${'0'.repeat(64)}`,
      });
    const holder = uniqueClient();
    for (let index = 0; index < WEBHOOK_BUDGET.limit; index += 1) expect((await push(hook, holder)).status).toBe(401);
    expect((await push(hook, holder)).headers.get('x-ratelimit-bucket')).toBe(`webhook:failures:${hook.webhookId}`);
    expect((await guess(holder)).status).toBe(404);
    const guesser = uniqueClient();
    for (let index = 0; index < ADDRESS_BUDGET; index += 1) {
      expect((await push({ webhookId: String(unknownIds++), token: hook.token }, guesser)).status).toBe(404);
    }
    const refused = await push(hook, guesser);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-bucket')).toBe('auth:failures');
  });

  it('spends nothing on accepted requests', async () => {
    const client = uniqueClient();
    const hook = await createWebhookFixture(gateway.pool);
    for (let index = 0; index < 70; index += 1) {
      const answer = await execute(hook, client, { zen: 'z', hook_id: 1 }, index % 2 === 0 ? '/codehost' : '/github', {
        'X-GitHub-Event': 'ping',
      });
      expect(answer.status).toBe(204);
    }
  });
});

describe('a guesser is stopped before anything is read', () => {
  it('refuses an address whose guesses spent its budget, on any webhook, before reading its body or the database', async () => {
    const client = uniqueClient();
    const hook = await createWebhookFixture(gateway.pool);
    for (let index = 0; index < ADDRESS_BUDGET; index += 1) {
      // Unknown ids, wrong tokens (with bodies valid or not): each proves nothing and spends one.
      const target =
        index % 2 === 0
          ? { webhookId: String(unknownIds++), token: BAD_TOKEN }
          : { webhookId: hook.webhookId, token: BAD_TOKEN };
      const answer = await execute(
        target,
        client,
        index % 3 === 2 ? { content: 'x', embeds: 'not a list' } : { content: 'x' },
      );
      expect([400, 404]).toContain(answer.status);
    }
    const refused = await guess(client);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', global: false });
    // Refused before the body was read: a 20 MiB body is not waited for.
    const large = await execute(
      { webhookId: hook.webhookId, token: BAD_TOKEN },
      client,
      JSON.stringify({ content: 'x'.repeat(20 * 1024 * 1024) }),
      '',
      {
        'Content-Type': 'application/json',
      },
    );
    expect(large.status).toBe(429);
    // Even the right token waits: the address's budget is spent, whatever it sends next.
    expect((await valid(hook, client)).status).toBe(429);

    // Before the database: with the webhooks table locked, a lookup would wait for the lock
    // (then 503); the refused guess answers 429 all the same.
    const locker = await gateway.pool.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE webhooks IN ACCESS EXCLUSIVE MODE');
      expect((await guess(client)).status).toBe(429);
      // The control: an address with budget left looks the webhook up, and waits for the lock.
      expect((await guess(uniqueClient())).status).toBe(503);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }

    // One refill (a second at 60 a minute) later, one more attempt; another address was never affected.
    await clock.advance(60_000 / ADDRESS_BUDGET);
    expect((await valid(hook, client)).status).toBe(204);
    expect((await valid(hook, uniqueClient())).status).toBe(204);
  });
});
