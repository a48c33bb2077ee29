import { describe, expect, it } from 'vitest';
import { webhookBodyKey, webhookDeliveryPayloadSchema, type WebhookDeliveryResult } from '@switchboard/contracts';
import { channelEvents, createWebhookFixture, webhookMessages } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { ids, jobContext, plainDelivery, useDeliveryStores } from './support.ts';

const environment = useTestEnvironment();
const stores = useDeliveryStores(environment, { poolMax: 4 });

describe('deliveries running at once share their writes, each with its own outcome', () => {
  it('stores and announces each message once, next to retries, a deleted webhook and claim-checked bodies', async () => {
    const { pool, redis, storage } = stores;
    const [hook, other, doomed] = await Promise.all([
      createWebhookFixture(pool),
      createWebhookFixture(pool),
      createWebhookFixture(pool),
    ]);
    const handle = stores.handler();
    const retried = plainDelivery(hook, 'stored before');
    expect(await handle(retried, jobContext())).toEqual({ outcome: 'stored', messageId: retried.messageId });
    await pool.query('DELETE FROM webhooks WHERE id = $1', [doomed.webhookId]);
    const stored = await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        const messageId = ids.next();
        const key = webhookBodyKey(other.webhookId, messageId);
        await storage.upload(key, JSON.stringify({ content: `large ${index}` }), { contentType: 'application/json' });
        return webhookDeliveryPayloadSchema.parse({
          webhookId: other.webhookId,
          messageId,
          format: 'plain',
          body: { kind: 'stored', key, bytes: 20 },
        });
      }),
    );
    const fresh = Array.from({ length: 30 }, (_, index) =>
      plainDelivery(index % 2 === 0 ? hook : other, `message ${index}`),
    );
    const gone = plainDelivery(doomed, 'too late');
    const payloads = [...fresh, retried, gone, ...stored];
    const results = await Promise.all(payloads.map((payload) => handle(payload, jobContext(payload.messageId))));
    expect(results).toEqual([
      ...[...fresh, retried].map((payload) => ({ outcome: 'stored', messageId: payload.messageId })),
      { outcome: 'webhook_gone' },
      ...stored.map((payload) => ({ outcome: 'stored', messageId: payload.messageId })),
    ]);
    expect(await webhookMessages(pool, hook.webhookId)).toHaveLength(16);
    expect(await webhookMessages(pool, other.webhookId)).toHaveLength(21);
    const announced = [
      ...(await channelEvents(redis, environment.eventsStreamKey, hook.channelId)),
      ...(await channelEvents(redis, environment.eventsStreamKey, other.channelId)),
    ].map((event) => event.message_id);
    expect(announced.sort()).toEqual([...fresh, retried, ...stored].map((payload) => payload.messageId).sort());
    const { rows } = await pool.query<{ content: string }>('SELECT content FROM messages WHERE id = $1', [
      fresh[3]!.messageId,
    ]);
    expect(rows[0]?.content).toBe('message 3');
  });
});

describe('deliveries with the same dedupe key (X-GitHub-Delivery)', () => {
  it('post once, announced once, whether they run at once or later; a retry of the one that posted is not a duplicate', async () => {
    const { pool, redis } = stores;
    const hook = await createWebhookFixture(pool);
    const handle = stores.handler();
    const redeliveries = Array.from({ length: 12 }, (_, index) => ({
      ...plainDelivery(hook, `redelivery ${index}`),
      deliveryId: 'same-delivery',
    }));
    const results = (await Promise.all(
      redeliveries.map((payload) => handle(payload, jobContext(payload.messageId))),
    )) as WebhookDeliveryResult[];
    const posted = results.filter((result) => result.outcome === 'stored');
    expect(posted).toHaveLength(1);
    const holder = posted[0]?.outcome === 'stored' ? posted[0].messageId : '';
    expect(results.filter((result) => result.outcome !== 'stored')).toEqual(
      new Array(11).fill({ outcome: 'duplicate', duplicateOf: holder }),
    );
    const winner = redeliveries.find((payload) => payload.messageId === holder)!;
    expect(await handle(winner, jobContext())).toEqual({ outcome: 'stored', messageId: holder });
    expect(await handle({ ...plainDelivery(hook, 'a day later'), deliveryId: 'same-delivery' }, jobContext())).toEqual({
      outcome: 'duplicate',
      duplicateOf: holder,
    });
    expect(await webhookMessages(pool, hook.webhookId)).toHaveLength(1);
    expect(
      (await channelEvents(redis, environment.eventsStreamKey, hook.channelId)).map((event) => event.message_id),
    ).toEqual([holder]);
  });
});

describe('a batch that fails', () => {
  it('a channel deleted while the batch waits to insert: the batch runs again delivery by delivery, only that one is not posted', async () => {
    const { pool, redis } = stores;
    const [kept, deleted] = await Promise.all([createWebhookFixture(pool), createWebhookFixture(pool)]);
    const handle = stores.handler();
    const deleting = await pool.connect();
    try {
      await deleting.query('BEGIN');
      await deleting.query('DELETE FROM channels WHERE id = $1', [deleted.channelId]);
      // One insert for both: it still sees the webhook; its foreign key check waits for the delete's row lock.
      const [first, second] = [plainDelivery(kept, 'batched'), plainDelivery(deleted, 'batched')];
      const results = Promise.all([handle(first, jobContext()), handle(second, jobContext())]);
      await waitFor(async () => {
        const { rows } = await pool.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return rows[0]!.waiting > 0;
      }, 10_000);
      await deleting.query('COMMIT');
      // The delete took the webhook with the channel: alone, that delivery finds no webhook.
      expect(await results).toEqual([{ outcome: 'stored', messageId: first.messageId }, { outcome: 'webhook_gone' }]);
    } finally {
      deleting.release();
    }
    expect(await webhookMessages(pool, kept.webhookId)).toHaveLength(1);
    expect(await channelEvents(redis, environment.eventsStreamKey, kept.channelId)).toHaveLength(1);
  });
});
