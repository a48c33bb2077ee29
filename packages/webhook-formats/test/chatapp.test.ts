import { describe, expect, it } from 'vitest';
import {
  chatAppBodySchema,
  findLimitViolations,
  renderChatApp,
  slackColor,
  type DirectOutcome,
  type RenderedMessage,
} from '../src/index.ts';

function render(body: unknown): DirectOutcome {
  return renderChatApp(chatAppBodySchema.parse(body));
}

function message(body: unknown): RenderedMessage {
  const outcome = render(body);
  if (outcome.kind !== 'message') throw new Error(`expected a message, got ${outcome.code}`);
  expect(findLimitViolations(outcome.message)).toEqual([]);
  return outcome.message;
}

describe('Slack body mapping', () => {
  it('maps every supported attachment field to the embed', () => {
    const rendered = message({
      text: 'Deploy <https://ci.example.com/run/1|finished> &amp; verified',
      username: 'Deploy Bot',
      icon_url: 'https://example.com/bot.png',
      channel: '#ignored',
      icon_emoji: ':ignored:',
      attachments: [
        {
          fallback: 'never shown: pretext and text exist',
          color: 'good',
          pretext: 'Release 1.2.3',
          author_name: 'ci',
          author_link: 'https://ci.example.com',
          author_icon: 'https://ci.example.com/icon.png',
          title: 'Build #42',
          title_link: 'https://ci.example.com/build/42',
          text: 'All <!here> checks passed',
          fields: [
            { title: 'Duration', value: '3m', short: true },
            { title: 'Commit', value: 'abc1234' },
            { title: 'Dropped: no value' },
            { value: 'Kept with a blank name' },
          ],
          image_url: 'https://ci.example.com/graph.png',
          thumb_url: 'https://ci.example.com/thumb.png',
          footer: 'CI',
          footer_icon: 'https://ci.example.com/footer.png',
          ts: '1503435956.000247',
          mrkdwn_in: ['text'],
          actions: [{ type: 'button' }],
        },
      ],
    });
    expect(rendered).toMatchInlineSnapshot(`
      {
        "allowed_mentions": {
          "parse": [],
        },
        "avatar_url": "https://example.com/bot.png",
        "content": "Deploy [finished](https://ci.example.com/run/1) & verified",
        "embeds": [
          {
            "author": {
              "icon_url": "https://ci.example.com/icon.png",
              "name": "ci",
              "url": "https://ci.example.com",
            },
            "color": 3061894,
            "description": "Release 1.2.3
      All @here checks passed",
            "fields": [
              {
                "inline": true,
                "name": "Duration",
                "value": "3m",
              },
              {
                "inline": false,
                "name": "Commit",
                "value": "abc1234",
              },
              {
                "inline": false,
                "name": "​",
                "value": "Kept with a blank name",
              },
            ],
            "footer": {
              "icon_url": "https://ci.example.com/footer.png",
              "text": "CI",
            },
            "image": {
              "url": "https://ci.example.com/graph.png",
            },
            "thumbnail": {
              "url": "https://ci.example.com/thumb.png",
            },
            "timestamp": "2017-08-22T21:05:56.000Z",
            "title": "Build #42",
            "url": "https://ci.example.com/build/42",
          },
        ],
        "username": "Deploy Bot",
      }
    `);
  });

  it('maps good/warning/danger and hex colours; anything else has no colour', () => {
    expect(['good', 'warning', 'danger', '#FF0000', '00ff00', '#abc', 'purple', '#12345'].map(slackColor)).toEqual([
      0x2eb886,
      0xdaa038,
      0xa30200,
      0xff0000,
      0x00ff00,
      0xaabbcc,
      undefined,
      undefined,
    ]);
    expect(message({ attachments: [{ text: 'x', color: 'danger' }] }).embeds[0]?.color).toBe(0xa30200);
    expect(message({ attachments: [{ text: 'x', color: 'purple' }] }).embeds[0]).not.toHaveProperty('color');
  });

  it('uses fallback only when there is neither pretext nor text', () => {
    expect(message({ attachments: [{ fallback: 'plain', color: 'good' }] }).embeds[0]?.description).toBe('plain');
    expect(message({ attachments: [{ fallback: 'plain', pretext: 'pre' }] }).embeds[0]?.description).toBe('pre');
  });

  it('drops invalid URLs silently, as Slack clients expect', () => {
    const rendered = message({
      text: 'hi',
      icon_url: 'not a url',
      attachments: [{ title: 't', title_link: 'javascript:alert(1)', image_url: 'ftp://x/y.png' }],
    });
    expect(rendered).not.toHaveProperty('avatar_url');
    expect(rendered.embeds).toEqual([{ title: 't' }]);
  });

  it('rejects a body with no text and no usable attachment as an empty message', () => {
    expect(render({})).toEqual({ kind: 'rejected', code: 'CANNOT_SEND_EMPTY_MESSAGE' });
    expect(render({ text: '   ', attachments: [{ color: 'good' }, { fields: [{ title: 'no value' }] }] })).toEqual({
      kind: 'rejected',
      code: 'CANNOT_SEND_EMPTY_MESSAGE',
    });
  });

  it('treats "" and null as absent, and refuses wrong types and fractional garbage', () => {
    expect(
      message({ text: 'x', username: '', icon_url: null, attachments: [{ title: '', text: 'y' }] }).embeds,
    ).toEqual([{ description: 'y' }]);
    expect(chatAppBodySchema.safeParse({ text: 'x', attachments: 'no' }).success).toBe(false);
    expect(chatAppBodySchema.safeParse({ text: 'x', attachments: [{ ts: 'yesterday' }] }).success).toBe(false);
    expect(chatAppBodySchema.safeParse({ text: 'x', attachments: [{ ts: -1 }] }).success).toBe(false);
  });
});

describe('Slack limits', () => {
  it('cuts text, attachments, fields and the embed total deterministically instead of failing', () => {
    const attachment = {
      title: 'T'.repeat(300),
      text: 'D'.repeat(5000),
      fields: Array.from({ length: 30 }, (_, index) => ({ title: `F${index}`, value: 'v'.repeat(2000) })),
      footer: 'f'.repeat(3000),
    };
    const body = {
      text: 'x'.repeat(2500),
      username: 'u'.repeat(100),
      attachments: Array.from({ length: 12 }, () => attachment),
    };
    const first = message(body);
    expect(first).toEqual(message(body));
    expect(first.content).toHaveLength(2000);
    expect(first.content.endsWith('...')).toBe(true);
    expect(first.username).toHaveLength(80);
    expect(first.embeds[0]?.title).toHaveLength(256);
    expect(first.embeds[0]?.description).toHaveLength(4096);
    const total = first.embeds.flatMap((embed) => [
      embed.title ?? '',
      embed.description ?? '',
      embed.footer?.text ?? '',
      ...(embed.fields ?? []).flatMap((field) => [field.name, field.value]),
    ]);
    expect(total.join('').length).toBeLessThanOrEqual(6000);
    expect(total.join('').length).toBeGreaterThan(5900);
  });
});
