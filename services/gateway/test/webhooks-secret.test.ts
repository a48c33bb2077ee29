import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, useTestEnvironment } from '@switchboard/testkit';
import { executeUrl, useExecuteStack } from './webhook-execute-helpers.ts';
import { createGuildFixture, createWebhook } from './webhooks-fixtures.ts';

const environment = useTestEnvironment();
const stack = useExecuteStack(environment);

const SECRET = 'It\'s a Secret to Everybody';
const hmacHex = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

/** GitHub's delivery: the exact bytes, signed with the secret as `X-Hub-Signature-256`. */
function githubDelivery(url: string, body: string, signature?: string) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-GitHub-Event': 'ping', 'X-GitHub-Delivery': randomUUID() };
  if (signature !== undefined) headers['X-Hub-Signature-256'] = signature;
  return fetch(`${url}/github`, { method: 'POST', headers, body });
}

describe('write-only webhook secrets (decisions §12)', () => {
  it('are set on create and never returned; signed code-host deliveries verify, unsigned ones are 401', async () => {
    const guild = await createGuildFixture(stack.gateway.pool);
    const made = await createWebhook(stack.gateway.url, guild.channelIds[0], guild.owner, { name: 'ci', secret: SECRET });
    expect(made).not.toHaveProperty('secret');
    const fetched = await call('GET', `${stack.gateway.url}/v1/webhooks/${made.id}`, { token: guild.owner.token });
    expect(fetched.body).not.toHaveProperty('secret');
    expect(JSON.stringify(fetched.body)).not.toContain(SECRET);

    const url = executeUrl(stack.gateway, { webhookId: made.id, token: made.token });
    const body = JSON.stringify({ zen: 'Design for failure.', hook_id: 1 });
    expect((await githubDelivery(url, body)).status).toBe(401);
    expect((await githubDelivery(url, body, `sha256=${hmacHex('wrong secret', body)}`)).status).toBe(401);
    expect((await githubDelivery(url, body, `sha256=${hmacHex(SECRET, body)}`)).status).toBe(204);
    // Sentry signs with the same secret, as its integration's client secret.
    const sentry = await fetch(`${url}/sentry`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Sentry-Hook-Resource': 'installation', 'Sentry-Hook-Signature': hmacHex(SECRET, body) },
      body,
    });
    expect(sentry.status).toBe(204);
  });

  it('are changed and cleared by PATCH (null), and refused when empty of meaning', async () => {
    const guild = await createGuildFixture(stack.gateway.pool);
    const made = await createWebhook(stack.gateway.url, guild.channelIds[0], guild.owner, { name: 'ci' });
    const url = executeUrl(stack.gateway, { webhookId: made.id, token: made.token });
    const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 2 });
    expect((await githubDelivery(url, body)).status).toBe(204);

    const patch = (changes: unknown) => call('PATCH', `${stack.gateway.url}/v1/webhooks/${made.id}`, { token: guild.owner.token, body: changes });
    const set = await patch({ secret: SECRET });
    expect(set.status).toBe(200);
    expect(set.body).not.toHaveProperty('secret');
    expect((await githubDelivery(url, body)).status).toBe(401);
    // A PATCH that does not name the secret leaves it.
    expect((await patch({ name: 'renamed' })).status).toBe(200);
    expect((await githubDelivery(url, body)).status).toBe(401);
    expect((await patch({ secret: 'x'.repeat(257) })).status).toBe(400);
    expect((await patch({ secret: 'nul\u0000' })).status).toBe(400);
    expect((await patch({ secret: null })).status).toBe(200);
    expect((await githubDelivery(url, body)).status).toBe(204);
  });

  it('cannot be changed with the webhook token alone: whoever holds the token would unset it', async () => {
    const guild = await createGuildFixture(stack.gateway.pool);
    const made = await createWebhook(stack.gateway.url, guild.channelIds[0], guild.owner, { name: 'ci', secret: SECRET });
    const url = executeUrl(stack.gateway, { webhookId: made.id, token: made.token });
    expect((await call('PATCH', url, { body: { secret: null } })).status).toBe(200);
    expect((await githubDelivery(url, JSON.stringify({ zen: 'z', hook_id: 3 }))).status).toBe(401);
  });
});
