import { describe, expect, it } from 'vitest';
import { executeBodySchema, renderExecute, type ExecuteBodyInput } from '../src/index.ts';

function parse(body: unknown) {
  return executeBodySchema.safeParse(body);
}

function issuePaths(body: unknown): string[] {
  const result = parse(body);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

describe('plain execute body', () => {
  it('renders content, embeds and overrides; mentions never ping; flags are masked', () => {
    const body: ExecuteBodyInput = {
      content: '  Hello <@123> @everyone  ',
      username: ' Custom Bot\u202e ',
      avatar_url: 'https://example.com/a.png',
      tts: true,
      allowed_mentions: { parse: ['everyone'] },
      flags: 4 | 4096 | 1,
      embeds: [
        {
          title: 'Title',
          description: 'Body',
          url: 'https://example.com/page#section',
          color: 0xff00ff,
          timestamp: 1_700_000_000_000,
          author: { name: 'Author', url: 'https://example.com', icon_url: null },
          footer: { text: 'Footer' },
          fields: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2', inline: true },
          ],
          image: { url: 'attachment://chart.png' },
          thumbnail: { url: 'https://example.com/t.png' },
          type: 'rich',
          video: { url: 'https://example.com/v.mp4' },
        } as never,
      ],
      sticker_ids: ['999999999999999999'],
      nonce: 'abc',
    };
    const outcome = renderExecute(executeBodySchema.parse(body));
    expect(outcome).toMatchInlineSnapshot(`
      {
        "kind": "message",
        "message": {
          "allowed_mentions": {
            "parse": [],
          },
          "avatar_url": "https://example.com/a.png",
          "content": "Hello <@123> @everyone",
          "embeds": [
            {
              "author": {
                "name": "Author",
                "url": "https://example.com",
              },
              "color": 16711935,
              "description": "Body",
              "fields": [
                {
                  "inline": false,
                  "name": "A",
                  "value": "1",
                },
                {
                  "inline": true,
                  "name": "B",
                  "value": "2",
                },
              ],
              "footer": {
                "text": "Footer",
              },
              "image": {
                "url": "attachment://chart.png",
              },
              "thumbnail": {
                "url": "https://example.com/t.png",
              },
              "timestamp": "2023-11-14T22:13:20.000Z",
              "title": "Title",
              "url": "https://example.com/page#section",
            },
          ],
          "flags": 4100,
          "username": "Custom Bot",
        },
      }
    `);
  });

  it('rejects an empty message after parsing ({}, "", whitespace), which the gateway checks after the token', () => {
    for (const body of [
      {},
      { content: '' },
      { content: '   ' },
      { content: null, embeds: [] },
      { sticker_ids: ['1'] },
    ]) {
      expect(renderExecute(executeBodySchema.parse(body))).toEqual({
        kind: 'rejected',
        code: 'CANNOT_SEND_EMPTY_MESSAGE',
      });
    }
    expect(renderExecute(executeBodySchema.parse({ embeds: [{ title: 'only an embed' }] })).kind).toBe('message');
  });

  it('refuses limit violations with field paths (a 400 on this path)', () => {
    expect(issuePaths({ content: 'x'.repeat(2001) })).toEqual(['content']);
    expect(issuePaths({ content: 'x'.repeat(2000) })).toEqual([]);
    expect(issuePaths({ username: 'u'.repeat(81) })).toEqual(['username']);
    expect(issuePaths({ embeds: Array.from({ length: 11 }, () => ({ title: 't' })) })).toEqual(['embeds']);
    expect(
      issuePaths({
        embeds: [
          {
            title: 't'.repeat(257),
            description: 'd'.repeat(4097),
            color: 0x1000000,
            url: 'ftp://example.com',
            author: { name: 'a'.repeat(257) },
            footer: { text: 'f'.repeat(2049) },
            fields: [{ name: 'n'.repeat(257), value: 'v'.repeat(1025) }],
            timestamp: 'yesterday',
          },
        ],
      }).sort(),
    ).toEqual(
      [
        // The pieces also add up to more than 6000 characters.
        'embeds',
        'embeds.0.title',
        'embeds.0.description',
        'embeds.0.color',
        'embeds.0.url',
        'embeds.0.author.name',
        'embeds.0.footer.text',
        'embeds.0.fields.0.name',
        'embeds.0.fields.0.value',
        'embeds.0.timestamp',
      ].sort(),
    );
    expect(issuePaths({ embeds: [{ fields: Array.from({ length: 26 }, () => ({ name: 'n', value: 'v' })) }] })).toEqual(
      ['embeds.0.fields'],
    );
  });

  it('refuses more than 6000 embed characters in total', () => {
    const embed = { description: 'd'.repeat(4000) };
    expect(issuePaths({ embeds: [embed] })).toEqual([]);
    expect(issuePaths({ embeds: [embed, embed] })).toEqual(['embeds']);
  });

  it('refuses wrong types and a non-object body', () => {
    expect(issuePaths({ content: 5 })).toEqual(['content']);
    expect(issuePaths({ avatar_url: 'javascript:alert(1)' })).toEqual(['avatar_url']);
    expect(issuePaths({ embeds: [{ image: { url: 'file:///etc/passwd' } }] })).toEqual(['embeds.0.image.url']);
    expect(parse([]).success).toBe(false);
    expect(parse('text').success).toBe(false);
  });
});
