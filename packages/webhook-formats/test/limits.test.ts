import { describe, expect, it } from 'vitest';
import {
  enforceMessageLimits,
  findLimitViolations,
  truncateToLimits,
  type Embed,
  type RenderedMessage,
} from '../src/index.ts';

function messageOf(embeds: Embed[], content = ''): RenderedMessage {
  return { content, embeds, allowed_mentions: { parse: [] } };
}

const oversized: RenderedMessage = {
  content: '😀'.repeat(1500),
  username: '  '.concat('n'.repeat(200)),
  avatar_url: 'javascript:alert(1)',
  allowed_mentions: { parse: [] },
  embeds: Array.from({ length: 14 }, (_, index) => ({
    title: `Embed ${index} `.repeat(40),
    description: 'd'.repeat(5000),
    url: 'not a url',
    color: 0x1000000,
    author: { name: 'a'.repeat(300), icon_url: 'https://example.com/i.png' },
    footer: { text: 'f'.repeat(2100) },
    fields: Array.from({ length: 30 }, (_, field) => ({
      name: field === 0 ? '' : `n${field}`,
      value: 'v'.repeat(1100),
      inline: false,
    })),
    image: { url: 'attachment://x.png' },
  })),
};

describe('findLimitViolations', () => {
  it('accepts a message at every limit exactly', () => {
    const atLimits = messageOf(
      [
        {
          title: 't'.repeat(256),
          description: 'd'.repeat(4096),
          author: { name: 'a'.repeat(256) },
          footer: { text: 'f'.repeat(1392) },
        },
      ],
      'c'.repeat(2000),
    );
    expect(findLimitViolations(atLimits)).toEqual([]);
    atLimits.embeds[0]!.footer!.text += 'f';
    expect(findLimitViolations(atLimits)).toEqual([
      { path: 'embeds', message: 'Embeds must total at most 6000 characters.', code: 'TOO_BIG' },
    ]);
  });

  it('reports every broken limit with its path', () => {
    const paths = findLimitViolations(oversized).map((violation) => violation.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'content',
        'username',
        'avatar_url',
        'embeds',
        'embeds.0.title',
        'embeds.0.description',
        'embeds.0.url',
        'embeds.0.color',
        'embeds.0.author.name',
        'embeds.0.footer.text',
        'embeds.0.fields',
        'embeds.0.fields.0.name',
        'embeds.0.fields.1.value',
      ]),
    );
  });
});

describe('enforceMessageLimits', () => {
  it('rejects with the violations under the reject policy, and passes valid messages unchanged', () => {
    const rejected = enforceMessageLimits(oversized, 'reject');
    expect(rejected.ok).toBe(false);
    const valid = messageOf([{ title: 'ok' }], 'hi');
    expect(enforceMessageLimits(valid, 'reject')).toEqual({ ok: true, message: valid });
  });

  it('truncates deterministically into a message that satisfies every limit', () => {
    const result = enforceMessageLimits(oversized, 'truncate');
    if (!result.ok) throw new Error('truncate never fails');
    expect(findLimitViolations(result.message)).toEqual([]);
    expect(truncateToLimits(oversized)).toEqual(result.message);
    const { message } = result;
    expect(message.embeds.length).toBeLessThanOrEqual(10);
    expect(message).not.toHaveProperty('avatar_url');
    expect(message.username).toBe(`${'n'.repeat(77)}...`);
    // The content is cut between surrogate pairs, never inside one.
    expect(message.content.length).toBeLessThanOrEqual(2000);
    expect(message.content.endsWith('😀...')).toBe(true);
    const first = message.embeds[0]!;
    expect(first.title).toHaveLength(256);
    expect(first.url).toBeUndefined();
    expect(first.color).toBeUndefined();
    expect(first.author).toEqual({ name: `${'a'.repeat(253)}...`, icon_url: 'https://example.com/i.png' });
    expect(first.description).toHaveLength(4096);
    // 6000 - 256 - 256 - 4096 = 1392 characters left for fields: the first, then part of the next.
    expect(first.fields?.map((field) => field.name)).toEqual(['\u200b', 'n1']);
    expect(message.embeds.slice(1).every((embed) => embed.image !== undefined && embed.title === undefined)).toBe(true);
  });

  it('leaves a message within the limits as it is', () => {
    const small = messageOf([{ title: 'x', fields: [{ name: 'a', value: 'b', inline: true }] }], 'hi');
    expect(truncateToLimits(small)).toEqual(small);
  });
});
