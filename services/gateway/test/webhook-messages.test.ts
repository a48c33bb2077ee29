import { IncomingWebhook } from '@slack/webhook';
import { REST, Routes, WebhookClient } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { channelEvents, createWebhookFixture, type WebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import type { MessageResponse } from '@switchboard/contracts';
import { executeUrl, fixtureIds, useExecuteStack } from './webhook-execute-helpers.ts';
import { createGuildFixture } from './webhooks-fixtures.ts';

const environment = useTestEnvironment();
const stack = useExecuteStack(environment);

function messageUrl(hook: Pick<WebhookFixture, 'webhookId' | 'token'>, messageId: string): string {
  return executeUrl(stack.gateway, hook, `/messages/${messageId}`);
}

/** Posts through plain execute with `?wait=true` and answers the stored message. */
async function post(hook: WebhookFixture, body: Record<string, unknown>): Promise<MessageResponse> {
  const answer = await call('POST', `${executeUrl(stack.gateway, hook)}?wait=true`, { body });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The events of the channel once there are `count` of them, by type. */
async function eventTypes(hook: WebhookFixture, count: number): Promise<string[]> {
  const events = await waitFor(async () => {
    const found = await channelEvents(stack.gateway.redis, environment.eventsStreamKey, hook.channelId);
    return found.length >= count && found;
  });
  return events.map((event) => event.type);
}

describe('a webhook’s messages through its token (GET, PATCH, DELETE)', () => {
  it('reads, edits and deletes its own message, each change announced once', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const posted = await post(hook, { content: 'build started', embeds: [{ title: 'CI', color: 0xff0000 }] });

    const read = await call('GET', messageUrl(hook, posted.id));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(posted);

    const edited = await call('PATCH', messageUrl(hook, posted.id), { body: { content: 'build passed' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      id: posted.id,
      content: 'build passed',
      embeds: posted.embeds,
      timestamp: posted.timestamp,
    });
    expect(Date.parse(edited.body.edited_timestamp)).toBeGreaterThanOrEqual(Date.parse(posted.timestamp));
    expect((await call('GET', messageUrl(hook, posted.id))).body).toEqual(edited.body);

    const noEmbeds = await call('PATCH', messageUrl(hook, posted.id), { body: { embeds: [] } });
    expect(noEmbeds.body).toMatchObject({ content: 'build passed', embeds: [] });

    expect((await call('DELETE', messageUrl(hook, posted.id))).status).toBe(204);
    expect((await call('GET', messageUrl(hook, posted.id))).body).toMatchObject({ code: 'UNKNOWN_MESSAGE' });
    expect(await eventTypes(hook, 4)).toEqual(['MESSAGE_CREATE', 'MESSAGE_UPDATE', 'MESSAGE_UPDATE', 'MESSAGE_DELETE']);
    const [, , , deleted] = await channelEvents(stack.gateway.redis, environment.eventsStreamKey, hook.channelId);
    expect(JSON.parse(deleted!.data)).toEqual({ id: posted.id, channel_id: hook.channelId, guild_id: hook.guildId });
  });

  it('refuses in execute’s order: bad body 400, token 404 UNKNOWN_WEBHOOK, another’s or unknown message 404 UNKNOWN_MESSAGE', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const other = await createWebhookFixture(stack.gateway.pool);
    const mine = await post(hook, { content: 'mine' });
    const theirs = await post(other, { content: 'theirs' });
    const wrongToken = { ...hook, token: 'x'.repeat(64) };

    const badBody = await call('PATCH', messageUrl(wrongToken, mine.id), { body: { content: 'x'.repeat(2001) } });
    expect([badBody.status, badBody.body.code]).toEqual([400, 'INVALID_FORM_BODY']);
    expect((await call('GET', messageUrl(wrongToken, mine.id))).body.code).toBe('UNKNOWN_WEBHOOK');
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const answer = await call(
        method,
        messageUrl(hook, theirs.id),
        method === 'PATCH' ? { body: { content: 'x' } } : {},
      );
      expect([answer.status, answer.body.code], method).toEqual([404, 'UNKNOWN_MESSAGE']);
    }
    expect((await call('GET', messageUrl(hook, fixtureIds.next()))).body.code).toBe('UNKNOWN_MESSAGE');
    expect((await call('GET', messageUrl(hook, 'not-an-id'))).status).toBe(400);
    // An edit that would leave nothing to show.
    const emptied = await call('PATCH', messageUrl(hook, mine.id), { body: { embeds: [], content: '   ' } });
    expect([emptied.status, emptied.body.code]).toEqual([400, 'CANNOT_SEND_EMPTY_MESSAGE']);
    expect((await call('GET', messageUrl(other, theirs.id))).body.content).toBe('theirs');
  });
});

describe('real clients against the gateway', () => {
  it('discord.js WebhookClient: send with embeds (waits), fetchMessage, editMessage, deleteMessage', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const client = new WebhookClient(
      { id: hook.webhookId, token: hook.token },
      { rest: { api: stack.gateway.url, version: '1' } },
    );
    try {
      const sent = await client.send({
        content: 'deploy started',
        embeds: [{ title: 'v1.2.3', description: 'rolling out' }],
      });
      expect(sent).toMatchObject({ content: 'deploy started', webhook_id: hook.webhookId, channel_id: hook.channelId });
      expect(sent.embeds).toEqual([expect.objectContaining({ title: 'v1.2.3', description: 'rolling out' })]);
      expect(await client.fetchMessage(sent.id)).toMatchObject({ id: sent.id, content: 'deploy started' });
      const edited = await client.editMessage(sent.id, { content: 'deploy finished' });
      expect(edited).toMatchObject({ id: sent.id, content: 'deploy finished' });
      expect(edited.edited_timestamp).not.toBeNull();
      await client.deleteMessage(sent.id);
      await expect(client.fetchMessage(sent.id)).rejects.toMatchObject({ status: 404 });
    } finally {
      client.destroy();
    }
  });

  it('discord.js REST: create, list, rename and delete a webhook as a bot with MANAGE_WEBHOOKS', async () => {
    const guild = await createGuildFixture(stack.gateway.pool);
    const rest = new REST({ api: stack.gateway.url, version: '1' }).setToken(guild.bot.token);
    const created = (await rest.post(Routes.channelWebhooks(guild.channelIds[0]), { body: { name: 'deploys' } })) as {
      id: string;
      name: string;
      token: string;
    };
    expect(created).toMatchObject({ name: 'deploys', channel_id: guild.channelIds[0] });
    const listed = (await rest.get(Routes.channelWebhooks(guild.channelIds[0]))) as Array<{ id: string }>;
    expect(listed.map((webhook) => webhook.id)).toContain(created.id);
    expect(await rest.patch(Routes.webhook(created.id), { body: { name: 'releases' } })).toMatchObject({
      name: 'releases',
    });
    await rest.delete(Routes.webhook(created.id));
    await expect(rest.get(Routes.webhook(created.id))).rejects.toMatchObject({ status: 404 });
  });

  it('@slack/webhook IncomingWebhook: send answers ok and the message is stored', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const slack = new IncomingWebhook(executeUrl(stack.gateway, hook, '/slack'));
    expect(await slack.send({ text: 'nightly build green', username: 'ci' })).toEqual({ text: 'ok' });
    const [event] = await waitFor(async () => {
      const found = await channelEvents(stack.gateway.redis, environment.eventsStreamKey, hook.channelId);
      return found.length > 0 && found;
    });
    expect(JSON.parse(event!.data)).toMatchObject({ content: 'nightly build green' });
  });
});
