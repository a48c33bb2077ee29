import { describe, expect, it } from 'vitest';
import { ChannelType, insertChannels } from '@switchboard/db';
import { call } from '@switchboard/testkit/http';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useGateway } from './helpers.ts';
import { createGuildFixture, createWebhook, ids, type GuildFixture } from './webhooks-fixtures.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment);

/**
 * A guild of its own per test: creates are limited to 10 a minute per user and channel
 * (webhook:create::channel_id), and this file leaves rate limits on.
 */
const fresh = (): Promise<GuildFixture> => createGuildFixture(gateway.pool);

const UNKNOWN_ID = '999999999999999999';

describe('create (docs/decisions.md#fluxer-integration-tests, webhook_validation_test)', () => {
  it('answers 200 with the webhook: 64-character token, creator as user, type 1, no avatar', async () => {
    const guild = await fresh();
    const answer = await call('POST', `${gateway.url}/v1/channels/${guild.channelIds[0]}/webhooks`, {
      token: guild.owner.token,
      body: { name: 'Test Webhook' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 1,
      guild_id: guild.guildId,
      channel_id: guild.channelIds[0],
      name: 'Test Webhook',
      avatar: null,
      token: expect.stringMatching(/^[A-Za-z0-9]{64}$/),
      user: {
        id: guild.owner.id,
        username: expect.any(String),
        discriminator: '0000',
        global_name: null,
        avatar: null,
        avatar_color: null,
        flags: 0,
      },
    });
  });

  it('refuses a missing name and an invalid avatar with 400 INVALID_FORM_BODY at the field', async () => {
    const guild = await fresh();
    const path = `/v1/channels/${guild.channelIds[0]}/webhooks`;
    const noName = await call('POST', `${gateway.url}${path}`, { token: guild.owner.token, body: {} });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({
      code: 'INVALID_FORM_BODY',
      errors: [expect.objectContaining({ path: 'name' })],
    });
    const badAvatar = await call('POST', `${gateway.url}${path}`, {
      token: guild.owner.token,
      body: { name: 'Test', avatar: 'invalid-base64' },
    });
    expect(badAvatar.status).toBe(400);
    expect(badAvatar.body.errors).toEqual([expect.objectContaining({ path: 'avatar' })]);
  });

  it('normalises names (U+202E, form feeds, trim) and counts 1–80 characters', async () => {
    const guild = await fresh();
    const made = await createWebhook(gateway.url, guild.channelIds[1], guild.owner, { name: '  \u202eDeploy\f bot  ' });
    expect(made.name).toBe('Deploy bot');
    const emoji = '🚀'.repeat(80);
    expect((await createWebhook(gateway.url, guild.channelIds[1], guild.owner, { name: emoji })).name).toBe(emoji);
    for (const name of ['x'.repeat(81), '   ', '\u202e\f', 42]) {
      const answer = await call('POST', `${gateway.url}/v1/channels/${guild.channelIds[1]}/webhooks`, {
        token: guild.owner.token,
        body: { name },
      });
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect(answer.body.errors[0].path).toBe('name');
    }
  });

  it('accepts names Discord forbids: no forbidden-name rule (docs/decisions.md#fluxer-webhook-names-and-text-normalisation)', async () => {
    const guild = await fresh();
    for (const name of ['clyde', 'discord', 'fluxer', 'everyone']) {
      expect((await createWebhook(gateway.url, guild.channelIds[1], guild.owner, { name })).name).toBe(name);
    }
  });

  it('answers 404 UNKNOWN_CHANNEL for an unknown channel and a DM channel, 400 for a bad id', async () => {
    const guild = await fresh();
    for (const channelId of [UNKNOWN_ID, guild.dmChannelId]) {
      const answer = await call('POST', `${gateway.url}/v1/channels/${channelId}/webhooks`, {
        token: guild.owner.token,
        body: { name: 'x' },
      });
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('UNKNOWN_CHANNEL');
    }
    const bad = await call('POST', `${gateway.url}/v1/channels/abc/webhooks`, {
      token: guild.owner.token,
      body: { name: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('channel_id');
  });
  it('refuses voice channels and categories (400 INVALID_CHANNEL_TYPE), as a create and as a move target', async () => {
    const guild = await fresh();
    const categoryId = ids.next();
    await insertChannels(gateway.pool, [
      { id: categoryId, guildId: guild.guildId, type: ChannelType.GuildCategory, name: 'Category', position: 9 },
    ]);
    const announcementId = ids.next();
    await insertChannels(gateway.pool, [
      { id: announcementId, guildId: guild.guildId, type: ChannelType.GuildAnnouncement, name: 'news', position: 10 },
    ]);
    for (const channelId of [guild.voiceChannelId, categoryId]) {
      const answer = await call('POST', `${gateway.url}/v1/channels/${channelId}/webhooks`, {
        token: guild.owner.token,
        body: { name: 'x' },
      });
      expect([answer.status, answer.body.code], channelId).toEqual([400, 'INVALID_CHANNEL_TYPE']);
    }
    const { rows } = await gateway.pool.query('SELECT count(*)::int AS n FROM webhooks WHERE guild_id = $1', [
      guild.guildId,
    ]);
    expect(rows[0].n).toBe(0);
    await createWebhook(gateway.url, announcementId, guild.owner);
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const moved = await call('PATCH', `${gateway.url}/v1/webhooks/${made.id}`, {
      token: guild.owner.token,
      body: { channel_id: guild.voiceChannelId },
    });
    expect([moved.status, moved.body.code]).toEqual([400, 'INVALID_CHANNEL_TYPE']);
  });
});

describe('read, list, update and delete by id', () => {
  it('answers 404 UNKNOWN_WEBHOOK for an unknown id on GET, PATCH and DELETE', async () => {
    const guild = await fresh();
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const answer = await call(method, `${gateway.url}/v1/webhooks/${UNKNOWN_ID}`, {
        token: guild.owner.token,
        ...(method === 'PATCH' ? { body: { name: 'New Name' } } : {}),
      });
      expect(answer.status, method).toBe(404);
      expect(answer.body.code).toBe('UNKNOWN_WEBHOOK');
    }
    expect((await call('GET', `${gateway.url}/v1/webhooks/12ab`, { token: guild.owner.token })).status).toBe(400);
  });

  it('lists per channel and per guild, with tokens and creators', async () => {
    const fixture = await createGuildFixture(gateway.pool);
    const first = await createWebhook(gateway.url, fixture.channelIds[0], fixture.owner, { name: 'one' });
    const second = await createWebhook(gateway.url, fixture.channelIds[1], fixture.manager, { name: 'two' });
    const channel = await call('GET', `${gateway.url}/v1/channels/${fixture.channelIds[0]}/webhooks`, {
      token: fixture.owner.token,
    });
    expect(channel.status).toBe(200);
    expect(channel.body).toEqual([first]);
    const all = await call('GET', `${gateway.url}/v1/guilds/${fixture.guildId}/webhooks`, {
      token: fixture.owner.token,
    });
    expect(all.body).toEqual([first, second]);
    expect(all.body[1].user.id).toBe(fixture.manager.id);
    const unknown = await call('GET', `${gateway.url}/v1/guilds/${UNKNOWN_ID}/webhooks`, {
      token: fixture.owner.token,
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'UNKNOWN_GUILD']);
  });

  it('renames, and reads the change back; "" leaves the name as it is, null is refused', async () => {
    const guild = await fresh();
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner, { name: 'before' });
    const path = `/v1/webhooks/${made.id}`;
    const renamed = await call('PATCH', `${gateway.url}${path}`, { token: guild.owner.token, body: { name: 'after' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...made, name: 'after' });
    expect((await call('GET', `${gateway.url}${path}`, { token: guild.owner.token })).body.name).toBe('after');
    expect(
      (await call('PATCH', `${gateway.url}${path}`, { token: guild.owner.token, body: { name: '' } })).body.name,
    ).toBe('after');
    const nulled = await call('PATCH', `${gateway.url}${path}`, { token: guild.owner.token, body: { name: null } });
    expect([nulled.status, nulled.body.errors[0].path]).toEqual([400, 'name']);
  });

  it('deletes with 204; the webhook is then gone by id and by token', async () => {
    const guild = await fresh();
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const deleted = await call('DELETE', `${gateway.url}/v1/webhooks/${made.id}`, { token: guild.owner.token });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await call('GET', `${gateway.url}/v1/webhooks/${made.id}`, { token: guild.owner.token })).status).toBe(404);
    expect((await call('GET', `${gateway.url}/v1/webhooks/${made.id}/${made.token}`)).status).toBe(404);
    expect((await call('DELETE', `${gateway.url}/v1/webhooks/${made.id}`, { token: guild.owner.token })).status).toBe(
      404,
    );
  });

  it('omits user once the creator is deleted, and the webhook keeps working', async () => {
    const fixture = await createGuildFixture(gateway.pool);
    const made = await createWebhook(gateway.url, fixture.channelIds[0], fixture.manager);
    await gateway.pool.query('DELETE FROM users WHERE id = $1', [fixture.manager.id]);
    const read = await call('GET', `${gateway.url}/v1/webhooks/${made.id}`, { token: fixture.owner.token });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('user');
    expect(read.body.token).toBe(made.token);
  });

  it('answers 405 with Allow for other methods', async () => {
    const guild = await fresh();
    const answer = await call('PUT', `${gateway.url}/v1/webhooks/${UNKNOWN_ID}`, { token: guild.owner.token });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toContain('PATCH');
  });
});

describe('moving a webhook (PATCH channel_id)', () => {
  it('moves within the guild', async () => {
    const guild = await fresh();
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.manager);
    const moved = await call('PATCH', `${gateway.url}/v1/webhooks/${made.id}`, {
      token: guild.manager.token,
      body: { channel_id: guild.channelIds[1], name: 'moved' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ channel_id: guild.channelIds[1], name: 'moved', guild_id: guild.guildId });
    const old = await call('GET', `${gateway.url}/v1/channels/${guild.channelIds[0]}/webhooks`, {
      token: guild.owner.token,
    });
    expect(old.body.map((w: { id: string }) => w.id)).not.toContain(made.id);
  });

  it('answers 404 UNKNOWN_CHANNEL for another guild, a DM or an unknown channel, and leaves the webhook', async () => {
    const guild = await fresh();
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    for (const channelId of [guild.other.channelId, guild.dmChannelId, UNKNOWN_ID]) {
      const answer = await call('PATCH', `${gateway.url}/v1/webhooks/${made.id}`, {
        token: guild.owner.token,
        body: { channel_id: channelId, name: 'x' },
      });
      expect(answer.status, channelId).toBe(404);
      expect(answer.body.code).toBe('UNKNOWN_CHANNEL');
    }
    const read = await call('GET', `${gateway.url}/v1/webhooks/${made.id}`, { token: guild.owner.token });
    expect(read.body).toMatchObject({ channel_id: guild.channelIds[0], name: made.name });
  });

  it('treats the current channel as no move', async () => {
    const guild = await fresh();
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const answer = await call('PATCH', `${gateway.url}/v1/webhooks/${made.id}`, {
      token: guild.owner.token,
      body: { channel_id: guild.channelIds[0] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.channel_id).toBe(guild.channelIds[0]);
  });
});

describe('token routes (no auth; responses without user)', () => {
  it('reads, updates and deletes by token (webhook_validation_test)', async () => {
    const guild = await fresh();
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const path = `/v1/webhooks/${made.id}/${made.token}`;
    const read = await call('GET', `${gateway.url}${path}`);
    expect(read.status).toBe(200);
    const { user: _user, ...withoutUser } = made;
    expect(read.body).toEqual(withoutUser);
    const updated = await call('PATCH', `${gateway.url}${path}`, { body: { name: 'Updated by Token' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...withoutUser, name: 'Updated by Token' });
    expect((await call('DELETE', `${gateway.url}${path}`)).status).toBe(204);
    expect((await call('GET', `${gateway.url}${path}`)).status).toBe(404);
  });

  it('changes only name and avatar: channel_id is ignored', async () => {
    const guild = await fresh();
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const answer = await call('PATCH', `${gateway.url}/v1/webhooks/${made.id}/${made.token}`, {
      body: { name: 'renamed', channel_id: guild.channelIds[1] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'renamed', channel_id: guild.channelIds[0] });
  });

  it('answers 404 UNKNOWN_WEBHOOK for a wrong token, another webhook’s token or an unknown id', async () => {
    const guild = await fresh();
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const other = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const paths = [
      `/v1/webhooks/${made.id}/invalid_token`,
      `/v1/webhooks/${made.id}/${other.token}`,
      `/v1/webhooks/${UNKNOWN_ID}/${made.token}`,
    ];
    for (const path of paths) {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const answer = await call(method, `${gateway.url}${path}`, method === 'PATCH' ? { body: { name: 'x' } } : {});
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.body).toEqual({ code: 'UNKNOWN_WEBHOOK', message: 'Unknown Webhook' });
      }
    }
    expect((await call('GET', `${gateway.url}/v1/webhooks/${made.id}/${made.token}`)).body.name).toBe(made.name);
  });

  it('validates path and body before the token: a bad body with a bad token is 400', async () => {
    const guild = await fresh();
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const badBody = await call('PATCH', `${gateway.url}/v1/webhooks/${made.id}/wrong`, {
      body: { name: 'x'.repeat(81) },
    });
    expect([badBody.status, badBody.body.code]).toEqual([400, 'INVALID_FORM_BODY']);
    const badId = await call('GET', `${gateway.url}/v1/webhooks/not-a-number/${made.token}`);
    expect([badId.status, badId.body.errors[0].path]).toEqual([400, 'webhook_id']);
    const longToken = await call('GET', `${gateway.url}/v1/webhooks/${made.id}/${'a'.repeat(257)}`);
    expect([longToken.status, longToken.body.errors[0].path]).toEqual([400, 'token']);
  });

  it('needs no Authorization, and ignores one', async () => {
    const guild = await fresh();
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const answer = await call('GET', `${gateway.url}/v1/webhooks/${made.id}/${made.token}`, { token: 'garbage' });
    expect(answer.status).toBe(200);
  });
});
