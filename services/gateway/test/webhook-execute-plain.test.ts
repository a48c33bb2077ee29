import { describe, expect, it } from 'vitest';
import { presentMessage } from '@switchboard/contracts';
import { findMessageById } from '@switchboard/db';
import { call } from '@switchboard/testkit/http';
import {
  channelEvents,
  createWebhookFixture,
  webhookMessages,
  type WebhookFixture,
} from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { executeUrl, messagesOf, useExecuteStack } from './webhook-execute-helpers.ts';

const environment = useTestEnvironment();
const stack = useExecuteStack(environment);

function hook(): Promise<WebhookFixture> {
  return createWebhookFixture(stack.gateway.pool);
}

describe('plain execute (docs/decisions.md#fluxer-integration-tests, TestWebhookExecution)', () => {
  it('answers 204 and the worker stores the message with the webhook as author', async () => {
    const webhook = await hook();
    const answer = await call('POST', executeUrl(stack.gateway, webhook), { body: { content: 'Hello from webhook!' } });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    const [message] = await messagesOf(stack.gateway.pool, webhook.webhookId);
    expect(message).toMatchObject({ content: 'Hello from webhook!', webhookName: webhook.name, embeds: [] });
  });

  it('?wait=true answers 200 with the stored message, as the read model presents it', async () => {
    const webhook = await hook();
    const answer = await call('POST', `${executeUrl(stack.gateway, webhook)}?wait=true`, {
      body: { content: 'Custom user', username: 'Custom Bot' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      content: 'Custom user',
      webhook_id: webhook.webhookId,
      channel_id: webhook.channelId,
      guild_id: webhook.guildId,
      author: { id: webhook.webhookId, username: 'Custom Bot', discriminator: '0000', bot: true },
      mentions: [],
      mention_everyone: false,
    });
    const stored = await findMessageById(stack.gateway.pool, answer.body.id);
    expect(answer.body).toEqual(presentMessage(stored!));
    const readBack = await fetch(`${stack.gateway.url}/v1/channels/${webhook.channelId}/messages`, {
      headers: { Authorization: webhook.ownerToken },
    });
    expect(readBack.status).toBe(200);
    expect(await readBack.json()).toEqual([answer.body]);
  });

  it('?wait=true round-trips content and embeds (colour 0 when unset)', async () => {
    const webhook = await hook();
    const body = {
      content: 'with embeds',
      embeds: [
        { title: 'T', description: 'D' },
        { title: 'Red', color: 0xff0000 },
      ],
    };
    const answer = await call('POST', `${executeUrl(stack.gateway, webhook)}?wait=true`, { body });
    expect(answer.status).toBe(200);
    expect(answer.body.content).toBe('with embeds');
    expect(answer.body.embeds).toHaveLength(2);
    expect(answer.body.embeds[0]).toMatchObject({ type: 'rich', title: 'T', description: 'D', color: 0 });
    expect(answer.body.embeds[1]).toMatchObject({ type: 'rich', title: 'Red', color: 0xff0000 });
  });

  it('?wait=false and other values answer 204; True and 1 wait (later Fluxer)', async () => {
    const webhook = await hook();
    for (const value of ['false', 'yes', '']) {
      expect(
        (await call('POST', `${executeUrl(stack.gateway, webhook)}?wait=${value}`, { body: { content: value || 'x' } }))
          .status,
      ).toBe(204);
    }
    for (const value of ['True', '1']) {
      expect(
        (await call('POST', `${executeUrl(stack.gateway, webhook)}?wait=${value}`, { body: { content: value } }))
          .status,
      ).toBe(200);
    }
  });

  it('{}, "" and blank content are 400 CANNOT_SEND_EMPTY_MESSAGE and post nothing', async () => {
    const webhook = await hook();
    for (const body of [{}, { content: '' }, { content: '   ' }, { embeds: [] }]) {
      const answer = await call('POST', executeUrl(stack.gateway, webhook), { body });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('CANNOT_SEND_EMPTY_MESSAGE');
    }
    const empty = await call('POST', executeUrl(stack.gateway, webhook));
    expect(empty.status).toBe(400);
    expect(await webhookMessages(stack.gateway.pool, webhook.webhookId)).toEqual([]);
  });

  it('an embed-only message, stickers (ignored) and custom emoji (kept) are accepted', async () => {
    const webhook = await hook();
    expect(
      (await call('POST', executeUrl(stack.gateway, webhook), { body: { embeds: [{ title: 'only', color: 3 }] } }))
        .status,
    ).toBe(204);
    const sticker = await call('POST', executeUrl(stack.gateway, webhook), {
      body: { content: 'Webhook sticker test', sticker_ids: ['999999999999999999'] },
    });
    expect(sticker.status).toBe(204);
    const emoji = await call('POST', `${executeUrl(stack.gateway, webhook)}?wait=true`, {
      body: { content: 'Wait test <:wait_emoji:123456789012345678>' },
    });
    expect(emoji.status).toBe(200);
    expect(emoji.body.content).toContain('<:wait_emoji:');
    // TestWebhook_EmojiBypas: 200 or 204 for external, animated, unknown and code-span emoji.
    for (const content of [
      'Webhook message <:external:111111111111111111> <a:animated:222222222222222222>',
      'Fake emoji <:doesnotexist:123456789012345678>',
      'Code: `<:code_emoji:111111111111111111>`',
    ]) {
      expect([200, 204]).toContain(
        (await call('POST', executeUrl(stack.gateway, webhook), { body: { content } })).status,
      );
    }
  });

  it('appends exactly one MESSAGE_CREATE per message to the events stream', async () => {
    const webhook = await hook();
    const answer = await call('POST', `${executeUrl(stack.gateway, webhook)}?wait=true`, {
      body: { content: 'event please' },
    });
    expect(answer.status).toBe(200);
    const events = await channelEvents(stack.gateway.redis, environment.eventsStreamKey, webhook.channelId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'MESSAGE_CREATE',
      guild_id: webhook.guildId,
      channel_id: webhook.channelId,
      message_id: answer.body.id,
    });
    expect(JSON.parse(events[0]!.data)).toEqual(answer.body);
  });

  it('snapshots the webhook name: renaming later does not change stored messages', async () => {
    const webhook = await hook();
    const first = await call('POST', `${executeUrl(stack.gateway, webhook)}?wait=true`, {
      body: { content: 'before rename' },
    });
    await stack.gateway.pool.query("UPDATE webhooks SET name = 'Renamed' WHERE id = $1", [webhook.webhookId]);
    const second = await call('POST', `${executeUrl(stack.gateway, webhook)}?wait=true`, {
      body: { content: 'after rename' },
    });
    expect(first.body.author.username).toBe(webhook.name);
    expect(second.body.author.username).toBe('Renamed');
    expect((await findMessageById(stack.gateway.pool, first.body.id))!.webhookName).toBe(webhook.name);
  });

  it('stores avatar_url as given and never fetches it', async () => {
    const webhook = await hook();
    const avatarUrl = 'https://avatars.example.invalid/a.png';
    const answer = await call('POST', `${executeUrl(stack.gateway, webhook)}?wait=true`, {
      body: { content: 'avatar', avatar_url: avatarUrl },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.author.avatar_url).toBe(avatarUrl);
  });

  it('accepts form-encoded bodies (content=…, or payload_json)', async () => {
    const webhook = await hook();
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    expect(
      (await call('POST', executeUrl(stack.gateway, webhook), { body: 'content=from+a+form', headers: form })).status,
    ).toBe(204);
    const json = `payload_json=${encodeURIComponent(JSON.stringify({ content: 'from payload_json' }))}`;
    expect((await call('POST', executeUrl(stack.gateway, webhook), { body: json, headers: form })).status).toBe(204);
    const rows = await messagesOf(stack.gateway.pool, webhook.webhookId, 2);
    expect(rows.map((row) => row.content).sort()).toEqual(['from a form', 'from payload_json']);
  });
});
