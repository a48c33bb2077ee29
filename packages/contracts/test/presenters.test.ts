import { describe, expect, it } from 'vitest';
import { snowflakeTimestamp } from '@switchboard/snowflake';
import { presentMessage, presentUserPartial, type MessageRecord, type UserPartialRecord } from '../src/index.ts';

const user: UserPartialRecord = {
  id: '175928847299117063',
  username: 'alice',
  discriminator: 7,
  globalName: null,
  avatarHash: 'a_0123abcd',
  flags: '0',
  bot: false,
  system: false,
};

const base: MessageRecord = {
  id: '1300000000000000000',
  channelId: '11',
  guildId: '10',
  author: user,
  webhookId: null,
  webhookName: null,
  webhookAvatarHash: null,
  webhookAvatarUrl: null,
  type: 0,
  content: 'hello',
  embeds: [],
  flags: 0,
  editedAt: null,
};

describe('presentUserPartial', () => {
  it('pads the discriminator and omits bot and system unless true', () => {
    const out = presentUserPartial(user);
    expect(out).toEqual({
      id: user.id,
      username: 'alice',
      discriminator: '0007',
      global_name: null,
      avatar: 'a_0123abcd',
      avatar_color: null,
      flags: 0,
    });
    expect(presentUserPartial({ ...user, bot: true, system: true })).toMatchObject({ bot: true, system: true });
  });
});

describe('presentMessage', () => {
  it('presents a user message Discord-shaped, time from the id', () => {
    const out = presentMessage(base);
    expect(out).toMatchObject({ id: base.id, channel_id: '11', guild_id: '10', content: 'hello', type: 0, tts: false });
    expect(out.author).toMatchObject({ id: user.id, username: 'alice' });
    expect(out.timestamp).toBe(snowflakeTimestamp(base.id).toISOString());
    expect(out.edited_timestamp).toBeNull();
    expect(out).not.toHaveProperty('webhook_id');
    expect([out.mentions, out.mention_roles, out.attachments]).toEqual([[], [], []]);
  });

  it('makes the webhook the author of a webhook message, from the snapshot', () => {
    const out = presentMessage({
      ...base,
      author: null,
      webhookId: '99',
      webhookName: 'Deploys',
      webhookAvatarHash: 'abcd',
      webhookAvatarUrl: 'https://example.com/a.png',
    });
    expect(out.webhook_id).toBe('99');
    expect(out.author).toEqual({
      id: '99',
      username: 'Deploys',
      discriminator: '0000',
      avatar: 'abcd',
      bot: true,
      flags: 0,
      avatar_url: 'https://example.com/a.png',
    });
  });

  it('shows a deleted author as such, and omits guild_id outside guilds', () => {
    const out = presentMessage({ ...base, author: null, guildId: null });
    expect(out.author.username).toBe('Deleted User');
    expect(out).not.toHaveProperty('guild_id');
  });
});
