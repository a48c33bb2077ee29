import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
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
      message(hook.webhookId, {
        username: `named ${AWKWARD}`,
        avatarUrl: 'https://example.com/avatar.png?size=64&x="y"',
        embeds: [],
      }),
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
    expect(first!.stored).toMatchObject({
      channelId: hook.channelId,
      guildId: hook.guildId,
      webhookName: 'Store Hook',
      author: null,
    });
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

  it('stores one message per dedupe key, within a batch, across batches and on a retry of the holder', async () => {
    const hook = await createWebhookFixture(pool());
    const other = await createWebhookFixture(pool());
    const key = { deliveryId: 'd5a5e1c0-7f43-11ee-9c1e-0d3e7c4b1a2f' };
    const [first, twin] = [message(hook.webhookId, key), message(hook.webhookId, key)];
    // The same key on another webhook is another delivery; no key never collides.
    const elsewhere = message(other.webhookId, key);
    const plain = message(hook.webhookId);
    const writes = await storeWebhookMessages(pool(), [first, twin, elsewhere, plain]);
    expect(writes.map((write) => ('stored' in write ? write.inserted : write))).toEqual([
      true,
      { duplicateOf: first.id },
      true,
      true,
    ]);
    expect(await findMessageById(pool(), twin.id)).toBeNull();

    const [redelivery, retry] = await storeWebhookMessages(pool(), [
      message(hook.webhookId, key),
      { ...first, content: 'a re-rendering' },
    ]);
    expect(redelivery).toEqual({ duplicateOf: first.id });
    expect(retry).toEqual({ stored: await findMessageById(pool(), first.id), inserted: false });
    const { rows } = await pool().query('SELECT id FROM messages WHERE webhook_id = $1 AND delivery_id IS NOT NULL', [
      hook.webhookId,
    ]);
    expect(rows).toEqual([{ id: first.id }]);
    // The key lives as long as the message it posted.
    await pool().query('DELETE FROM messages WHERE id = $1', [first.id]);
    const [again] = await storeWebhookMessages(pool(), [message(hook.webhookId, key)]);
    expect(again && 'stored' in again && again.inserted).toBe(true);
  });

  it('posts exactly one of many concurrent statements with the same key, and none for a webhook that is gone', async () => {
    const hook = await createWebhookFixture(pool());
    const key = { deliveryId: 'concurrent' };
    const racers = Array.from({ length: 8 }, () => message(hook.webhookId, key));
    const writes = (await Promise.all(racers.map((racer) => storeWebhookMessages(pool(), [racer])))).flat();
    const winners = writes.filter((write) => 'stored' in write);
    expect(winners).toHaveLength(1);
    const holder = 'stored' in winners[0]! ? winners[0].stored.id : '';
    expect(writes.filter((write) => !('stored' in write))).toEqual(new Array(7).fill({ duplicateOf: holder }));

    const gone = await createWebhookFixture(pool());
    await deleteWebhook(pool(), gone.webhookId);
    expect(await storeWebhookMessages(pool(), [message(gone.webhookId, key)])).toEqual([{ webhookGone: true }]);
  });
});
