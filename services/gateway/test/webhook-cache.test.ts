import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture, type WebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { credentialLookups, untilAnsweredFromMemory, useGateway, type RunningGateway } from './helpers.ts';
import { deliveriesQueue, executeUrl } from './webhook-execute-helpers.ts';

const environment = useTestEnvironment();
// A long lease: what these tests see from memory must not lapse on a busy machine meanwhile.
const LEASE_MS = 5_000;
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', CREDENTIAL_CACHE_LEASE_MS: String(LEASE_MS) });
const other = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', CREDENTIAL_CACHE_LEASE_MS: String(LEASE_MS) });

const COUNTER = 'webhook_execution_lookups_total';
const lookups = (target: RunningGateway) => credentialLookups(target, COUNTER);

const execute = (target: RunningGateway, hook: WebhookFixture) =>
  call('POST', executeUrl(target, hook), { body: { content: 'from memory?' } });

/** A code-host ping without a signature: 204 while the webhook has no secret, 401 once it has one. */
const unsignedPing = (target: RunningGateway, hook: WebhookFixture) =>
  call('POST', executeUrl(target, hook, '/codehost'), {
    body: { zen: 'Keep it logically awesome.' },
    headers: { 'X-GitHub-Event': 'ping' },
  });

/** Executes until an answer came from memory (401 for a webhook with a secret: it is signed-only). */
const cached = (target: RunningGateway, hook: WebhookFixture, status = 204) =>
  untilAnsweredFromMemory(target, COUNTER, async () => {
    expect((await execute(target, hook)).status).toBe(status);
  });

/** The trigger of migration 0010 off: changes made meanwhile notify no gateway. */
async function silenceChanges(silent: boolean): Promise<void> {
  await gateway.pool.query(
    `ALTER TABLE webhooks ${silent ? 'DISABLE' : 'ENABLE'} TRIGGER webhooks_credentials_changed`,
  );
}

afterEach(() => silenceChanges(false));

describe('webhooks from memory', () => {
  it('executes a webhook it read while its change feed holds the lease without asking the database', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    await cached(gateway, hook);
    const before = await lookups(gateway);
    for (let i = 0; i < 5; i += 1) expect((await execute(gateway, hook)).status).toBe(204);
    // A wrong token is still a 404 from memory: the token is checked on every request.
    expect((await execute(gateway, { ...hook, token: 'x'.repeat(68) })).status).toBe(404);
    const after = await lookups(gateway);
    expect(after.hit - before.hit).toBe(6);
    expect(after.read).toBe(before.read);
  });

  it('accepts a delivery with a dedupe key from memory, queued with its key; a wrong token or a missing signature queues nothing', async () => {
    const [open, signed] = await Promise.all([
      createWebhookFixture(gateway.pool),
      createWebhookFixture(gateway.pool, { secret: 'shh' }),
    ]);
    await cached(gateway, open);
    await cached(gateway, signed, 401);
    const deliveryId = randomUUID();
    const ping = (hook: WebhookFixture) =>
      call('POST', executeUrl(gateway, hook, '/codehost'), {
        body: { zen: 'Non-blocking is better than blocking.' },
        headers: { 'X-GitHub-Event': 'ping', 'X-GitHub-Delivery': deliveryId },
      });
    const before = await lookups(gateway);
    expect((await ping(open)).status).toBe(204);
    expect((await ping(open)).status).toBe(204);
    expect((await ping({ ...open, token: 'x'.repeat(68) })).status).toBe(404);
    expect((await ping(signed)).status).toBe(401);
    const after = await lookups(gateway);
    expect(after.hit - before.hit).toBe(4);
    expect(after.read).toBe(before.read);
    // No worker runs here: the queue holds the delivery with its key, once (the enqueue claims
    // the key: the redelivery added nothing).
    const queue = deliveriesQueue(gateway);
    try {
      const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'delayed']);
      const queued = jobs.filter((job) => job.data.deliveryId === deliveryId);
      expect(queued.map((job) => job.data.webhookId)).toEqual([open.webhookId]);
    } finally {
      await queue.close();
    }
  });

  it('answers 404 on every replica once a deletion through the API has answered', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    await cached(gateway, hook);
    await cached(other, hook);
    // Feeds live for a whole lease know every replica that may answer from memory, so the
    // deletion waits for their acknowledgements, not for the lease.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
    await cached(other, hook);
    const started = performance.now();
    expect((await call('DELETE', `${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}`)).status).toBe(204);
    expect(performance.now() - started).toBeLessThan(LEASE_MS);
    expect((await execute(other, hook)).status).toBe(404);
    expect((await execute(gateway, hook)).status).toBe(404);
  });

  it('enforces a secret set through the API on every replica once the PATCH has answered', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    await cached(gateway, hook);
    await cached(other, hook);
    expect((await unsignedPing(other, hook)).status).toBe(204);
    const patched = await call('PATCH', `${gateway.url}/v1/webhooks/${hook.webhookId}`, {
      token: hook.ownerToken,
      body: { secret: 'shh' },
    });
    expect(patched.status).toBe(200);
    expect((await unsignedPing(other, hook)).status).toBe(401);
    expect((await unsignedPing(gateway, hook)).status).toBe(401);
  });

  it('sees a webhook deleted in SQL (or with its guild) as soon as each replica hears the commit', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const byGuild = await createWebhookFixture(gateway.pool);
    for (const target of [gateway, other]) for (const fixture of [hook, byGuild]) await cached(target, fixture);
    await gateway.pool.query('DELETE FROM webhooks WHERE id = $1', [hook.webhookId]);
    await gateway.pool.query('DELETE FROM guilds WHERE id = $1', [byGuild.guildId]);
    for (const target of [gateway, other]) {
      for (const fixture of [hook, byGuild])
        await expect.poll(async () => (await execute(target, fixture)).status, { timeout: 2_000 }).toBe(404);
    }
  });

  it('stops answering from memory when its feed connection is lost, so nothing missed meanwhile is served', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    await cached(gateway, hook);
    // A deletion no gateway hears: from memory the webhook still executes.
    await silenceChanges(true);
    await gateway.pool.query('DELETE FROM webhooks WHERE id = $1', [hook.webhookId]);
    expect((await execute(gateway, hook)).status).toBe(204);
    // Cut every feed of this database: each drops what it cached, so the deletion shows at once.
    const { rowCount } = await gateway.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'gateway-credential-feed' AND datname = current_database()`,
    );
    expect(rowCount).toBe(2);
    await expect.poll(async () => (await execute(gateway, hook)).status, { timeout: 2_000 }).toBe(404);
    await silenceChanges(false);
    await expect.poll(async () => (await lookups(gateway)).live, { timeout: 5_000 }).toBe(1);
  });
});
