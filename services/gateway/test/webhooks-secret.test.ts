import { createHmac, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { text as readText } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { executeUrl, useExecuteStack } from './webhook-execute-helpers.ts';
import { createGuildFixture, createWebhook, ids } from './webhooks-fixtures.ts';

const environment = useTestEnvironment();
const stack = useExecuteStack(environment);

const SECRET = "It's a Secret to Everybody";
const hmacHex = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

/** GitHub's delivery: the exact bytes, signed with the secret as `X-Hub-Signature-256`. */
function githubDelivery(url: string, body: string, signature?: string) {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-GitHub-Event': 'ping',
    'X-GitHub-Delivery': randomUUID(),
  };
  if (signature !== undefined) headers['X-Hub-Signature-256'] = signature;
  return fetch(`${url}/github`, { method: 'POST', headers, body });
}

/**
 * A POST that declares a 1 MiB JSON body and sends one byte of it, then nothing: the answer's
 * status and code, or status 0 when the connection closed without one.
 */
function unfinishedPost(url: string): Promise<{ status: number; code?: string }> {
  return new Promise((resolve) => {
    const sent = request(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(1024 * 1024) },
    });
    sent.on('response', (response) => {
      void readText(response).then((body) => {
        sent.destroy();
        resolve({ status: response.statusCode ?? 0, code: (JSON.parse(body) as { code?: string }).code });
      });
    });
    sent.on('error', () => resolve({ status: 0 }));
    sent.write('{');
  });
}

/** A webhook with SECRET on a new guild, and its execution URL. */
async function webhookWithSecret(name: string) {
  const guild = await createGuildFixture(stack.gateway.pool);
  const made = await createWebhook(stack.gateway.url, guild.channelIds[0], guild.owner, { name, secret: SECRET });
  return { guild, made, url: executeUrl(stack.gateway, { webhookId: made.id, token: made.token }) };
}

describe('write-only webhook secrets (docs/decisions.md#webhook-secrets)', () => {
  it('are set on create and never returned; signed code-host deliveries verify, unsigned ones are 401', async () => {
    const guild = await createGuildFixture(stack.gateway.pool);
    const made = await createWebhook(stack.gateway.url, guild.channelIds[0], guild.owner, {
      name: 'ci',
      secret: SECRET,
    });
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
      headers: {
        'Content-Type': 'application/json',
        'Sentry-Hook-Resource': 'installation',
        'Sentry-Hook-Signature': hmacHex(SECRET, body),
      },
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

    const patch = (changes: unknown) =>
      call('PATCH', `${stack.gateway.url}/v1/webhooks/${made.id}`, { token: guild.owner.token, body: changes });
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
    const { url } = await webhookWithSecret('ci');
    expect((await call('PATCH', url, { body: { secret: null } })).status).toBe(200);
    expect((await githubDelivery(url, JSON.stringify({ zen: 'z', hook_id: 3 }))).status).toBe(401);
  });

  it('make the webhook signed-only: its token alone cannot post, edit or delete where a signature is expected', async () => {
    const { guild, made, url } = await webhookWithSecret('GitHub');
    const spoof = {
      username: 'GitHub',
      embeds: [{ title: '[acme/app] 1 new commit', description: 'Merge pull request #1' }],
    };
    const refused = async (answer: Response) => [answer.status, ((await answer.json()) as { code: string }).code];
    const SIGNATURE = [401, 'INVALID_WEBHOOK_SIGNATURE'];
    const json = { 'Content-Type': 'application/json' };
    expect(await refused(await fetch(url, { method: 'POST', headers: json, body: JSON.stringify(spoof) }))).toEqual(
      SIGNATURE,
    );
    expect(
      await refused(await fetch(`${url}?wait=true`, { method: 'POST', headers: json, body: JSON.stringify(spoof) })),
    ).toEqual(SIGNATURE);
    for (const suffix of ['/slack', '/chatapp']) {
      const slack = await fetch(`${url}${suffix}`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ text: 'Deploy approved', username: 'GitHub' }),
      });
      expect(await refused(slack), suffix).toEqual(SIGNATURE);
    }
    const { rows } = await stack.gateway.pool.query('SELECT count(*)::int AS n FROM messages WHERE webhook_id = $1', [
      made.id,
    ]);
    expect(rows[0].n).toBe(0);

    // A message the signed sender posted: readable by token, but neither rewritten nor removed.
    const messageId = ids.next();
    await stack.gateway.pool.query(
      `INSERT INTO messages (id, channel_id, guild_id, webhook_id, webhook_name, content) VALUES ($1, $2, $3, $4, 'GitHub', 'build passed')`,
      [messageId, guild.channelIds[0], guild.guildId, made.id],
    );
    const messageUrl = `${url}/messages/${messageId}`;
    expect((await call('GET', messageUrl)).status).toBe(200);
    const edit = await call('PATCH', messageUrl, { body: { content: 'build failed: revert main' } });
    expect([edit.status, edit.body.code]).toEqual(SIGNATURE);
    const removal = await call('DELETE', messageUrl);
    expect([removal.status, removal.body.code]).toEqual(SIGNATURE);
    // Signed deliveries still land.
    const body = JSON.stringify({ zen: 'Approachable is better than simple.', hook_id: 4 });
    expect((await githubDelivery(url, body, `sha256=${hmacHex(SECRET, body)}`)).status).toBe(204);

    // Without the secret the webhook is an ordinary one again.
    expect(
      (
        await call('PATCH', `${stack.gateway.url}/v1/webhooks/${made.id}`, {
          token: guild.owner.token,
          body: { secret: null },
        })
      ).status,
    ).toBe(200);
    expect(
      (await fetch(url, { method: 'POST', headers: json, body: JSON.stringify({ content: 'plain again' }) })).status,
    ).toBe(204);
  });

  it('refuse an unsigned route before its body: a broken or unfinished body is 401, not 400 or 408', async () => {
    const { url } = await webhookWithSecret('GitHub');
    for (const route of [url, `${url}/slack`]) {
      const broken = await fetch(route, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
      expect([broken.status, ((await broken.json()) as { code: string }).code], route).toEqual([
        401,
        'INVALID_WEBHOOK_SIGNATURE',
      ]);
      // Answered without waiting for the rest of the body: a wait would end in 408 instead.
      expect(await unfinishedPost(route), route).toEqual({ status: 401, code: 'INVALID_WEBHOOK_SIGNATURE' });
    }
    // A signed route still reads the body first: a broken one is 400 there.
    expect((await githubDelivery(url, '{')).status).toBe(400);
  });
});
