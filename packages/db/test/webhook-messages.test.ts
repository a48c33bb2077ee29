import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { createWebhookFixture, testSnowflakeWorkerId, useTestEnvironment, useTestPool } from '@switchboard/testkit';
import { describe, expect, it } from 'vitest';
import { deleteWebhook, findMessageById, storeWebhookMessages, type WebhookDeliveryMessage } from '../src/index.ts';

const pool = useTestPool(useTestEnvironment());
const ids = createSnowflakeGenerator(testSnowflakeWorkerId());

/** JSON's and arrays' special characters, control characters, U+2028, multi-byte and astral text. */
const AWKWARD = `"quoted" \\ back\\slash {braces} [x,y] 'single' \t\n\r \u0001\u001f \u2028 «ünï» 🎉 NULL`;

function message(webhookId: string, overrides: Partial<WebhookDeliveryMessage> = {}): WebhookDeliveryMessage {
  return {
    id: ids.next(),
    webhookId,
    username: null,
    avatarUrl: null,
    content: `pushed ${AWKWARD}`,
    embeds: [
      {
        type: 'rich',
        title: `[repo] 2 new commits ${AWKWARD}`,
        url: 'https://example.com/compare/a...b#diff',
        description: `\`abc123\` ${AWKWARD}\n\`def456\` fix: "quotes"`,
        color: 0x7289da,
        fields: [{ name: 'branch', value: 'main', inline: true }],
        author: { name: 'octocat', icon_url: 'https://example.com/a.png' },
        footer: { text: '' },
      },
    ],
    flags: 4,
    ...overrides,
  };
}

describe('storeWebhookMessages', () => {
  it('answers each inserted message as the row PostgreSQL now holds', async () => {
    const hook = await createWebhookFixture(pool(), { name: 'Store Hook' });
    const batch = [
      message(hook.webhookId),
      message(hook.webhookId, { username: `named ${AWKWARD}`, avatarUrl: 'https://example.com/avatar.png?size=64&x="y"', embeds: [] }),
      message(hook.webhookId, { content: '', flags: 0 }),
    ];
    const writes = await storeWebhookMessages(pool(), batch);
    expect(writes.map((write) => ('stored' in write ? write.stored.id : write))).toEqual(batch.map((sent) => sent.id));
    for (const write of writes) {
      if (!('stored' in write)) throw new Error('expected a stored message');
      expect(write.inserted).toBe(true);
      // Built from what was sent plus the returned columns: it must be the row, value for value.
      expect(write.stored).toEqual(await findMessageById(pool(), write.stored.id));
    }
    const [first, named] = writes as Array<Extract<(typeof writes)[number], { stored: unknown }>>;
    expect(first!.stored).toMatchObject({ channelId: hook.channelId, guildId: hook.guildId, webhookName: 'Store Hook', author: null });
    expect(named!.stored.webhookName).toBe(`named ${AWKWARD}`);
  });

  it('leaves a message stored by an earlier attempt as it is and answers that row', async () => {
    const hook = await createWebhookFixture(pool());
    const first = message(hook.webhookId, { content: 'the first attempt' });
    await storeWebhookMessages(pool(), [first]);
    const [retry] = await storeWebhookMessages(pool(), [{ ...first, content: 'a re-rendering' }]);
    expect(retry).toEqual({ stored: await findMessageById(pool(), first.id), inserted: false });
    expect(retry && 'stored' in retry && retry.stored.content).toBe('the first attempt');
  });

  it('answers webhookGone for a message whose webhook was deleted, and stores the rest of the batch', async () => {
    const [kept, gone] = [await createWebhookFixture(pool()), await createWebhookFixture(pool())];
    await deleteWebhook(pool(), gone.webhookId);
    const batch = [message(gone.webhookId), message(kept.webhookId)];
    const [lost, stored] = await storeWebhookMessages(pool(), batch);
    expect(lost).toEqual({ webhookGone: true });
    expect(stored && 'stored' in stored && stored.inserted).toBe(true);
    expect(await findMessageById(pool(), batch[0]!.id)).toBeNull();
  });
});
