import { describe, expect, it } from 'vitest';
import { parseStreamEvent } from '@switchboard/contracts';
import { findMessageById } from '@switchboard/db';
import { snowflakeFromTimestamp, snowflakeTimestamp } from '@switchboard/snowflake';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { deleteHandler, editHandler } from '../src/index.ts';
import { ids, jobContext, plainDelivery, useDeliveryStores } from './support.ts';

const environment = useTestEnvironment();
const stores = useDeliveryStores(environment);

/** Handlers on a stream of their own, so a test counts only its own events. */
function on(name: string) {
  const prefix = `${environment.redisPrefix}.${name}`;
  const events = { streamKey: `${prefix}:events`, redisPrefix: prefix, maxLength: 1000, markerTtlSeconds: 60 };
  const deps = { pool: stores.pool, redis: stores.redis, events };
  const types = async () =>
    (await stores.redis.xrange(events.streamKey, '-', '+')).map(([, fields]) => parseStreamEvent(fields).type);
  return { deliver: stores.handler(events), edit: editHandler(deps), remove: deleteHandler(deps), types };
}

describe('edits and deletes through the webhook token, on the worker', () => {
  it('an edit run twice (a retry) writes the same row and appends MESSAGE_UPDATE once', async () => {
    const { deliver, edit, types } = on('edit');
    const hook = await createWebhookFixture(stores.pool);
    const sent = plainDelivery(hook, 'started');
    await deliver(sent, jobContext());
    const change = { webhookId: hook.webhookId, messageId: sent.messageId, editId: ids.next(), content: 'passed' };
    expect(await edit(change, jobContext())).toEqual({ outcome: 'changed' });
    expect(await edit(change, jobContext())).toEqual({ outcome: 'changed' });
    const stored = await findMessageById(stores.pool, sent.messageId);
    expect(stored).toMatchObject({ content: 'passed', editedAt: snowflakeTimestamp(change.editId) });
    expect(await types()).toEqual(['MESSAGE_CREATE', 'MESSAGE_UPDATE']);
  });

  it('a stale edit retried after a later one changes and announces nothing', async () => {
    const { deliver, edit, types } = on('stale');
    const hook = await createWebhookFixture(stores.pool);
    const sent = plainDelivery(hook, 'v1');
    await deliver(sent, jobContext());
    // Made a second earlier: edits are ordered by the time their ids carry.
    const olderId = snowflakeFromTimestamp(new Date(Date.now() - 1000)).toString();
    const older = { webhookId: hook.webhookId, messageId: sent.messageId, editId: olderId, content: 'v2' };
    const newer = { webhookId: hook.webhookId, messageId: sent.messageId, editId: ids.next(), content: 'v3' };
    await edit(newer, jobContext());
    await edit(older, jobContext());
    expect(await findMessageById(stores.pool, sent.messageId)).toMatchObject({ content: 'v3' });
    expect(await types()).toEqual(['MESSAGE_CREATE', 'MESSAGE_UPDATE']);
  });

  it('a delete run twice appends MESSAGE_DELETE once, also when the retry finds the row gone', async () => {
    const { deliver, remove, types } = on('delete');
    const hook = await createWebhookFixture(stores.pool);
    const sent = plainDelivery(hook, 'bye');
    await deliver(sent, jobContext());
    const change = {
      webhookId: hook.webhookId,
      messageId: sent.messageId,
      channelId: hook.channelId,
      guildId: hook.guildId,
    };
    expect(await remove(change, jobContext())).toEqual({ outcome: 'changed' });
    expect(await remove(change, jobContext())).toEqual({ outcome: 'gone' });
    expect(await findMessageById(stores.pool, sent.messageId)).toBeNull();
    expect(await types()).toEqual(['MESSAGE_CREATE', 'MESSAGE_DELETE']);
  });
});
