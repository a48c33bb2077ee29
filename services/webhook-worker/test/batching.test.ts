import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookBodyKey, webhookDeliveryPayloadSchema, type WebhookDeliveryPayload } from '@switchboard/contracts';
import { countWebhookMessages, createPool, type Pool } from '@switchboard/db';
import { closeRedis, createRedis } from '@switchboard/redis';
import { createStorage, type Storage } from '@switchboard/storage';
import { useTestEnvironment } from '@switchboard/testkit';
import { deliveryHandler } from '../src/index.ts';
import { createHook, ids, jobContext, streamEvents, type Hook } from './support.ts';

const environment = useTestEnvironment();
let pool: Pool;
let redis: Redis;
let storage: Storage;

beforeAll(async () => {
  pool = createPool({ connectionString: environment.databaseUrl, max: 4 });
  redis = createRedis(environment.redisUrl, { role: 'client' });
  storage = createStorage({ ...environment.s3, forcePathStyle: true });
});

afterAll(async () => {
  await pool?.end();
  if (redis) await closeRedis(redis);
  storage?.close();
});

function plain(hook: Hook, content: string, messageId = ids.next()): WebhookDeliveryPayload {
  return webhookDeliveryPayloadSchema.parse({ webhookId: hook.webhookId, messageId, format: 'plain', body: { kind: 'inline', value: { content } } });
}

describe('deliveries running at once share their writes, each with its own outcome', () => {
  it('stores and announces each message once, next to retries, a deleted webhook and claim-checked bodies', async () => {
    const [hook, other, doomed] = await Promise.all([createHook(pool), createHook(pool), createHook(pool)]);
    const handle = deliveryHandler({ pool, redis, storage, events: { streamKey: environment.eventsStreamKey, redisPrefix: environment.redisPrefix, maxLength: 10_000, markerTtlSeconds: 60 } });
    const retried = plain(hook, 'stored before');
    expect(await handle(retried, jobContext())).toEqual({ outcome: 'stored', messageId: retried.messageId });
    await pool.query('DELETE FROM webhooks WHERE id = $1', [doomed.webhookId]);
    const stored = await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        const messageId = ids.next();
        const key = webhookBodyKey(other.webhookId, messageId);
        await storage.upload(key, JSON.stringify({ content: `large ${index}` }), { contentType: 'application/json' });
        return webhookDeliveryPayloadSchema.parse({ webhookId: other.webhookId, messageId, format: 'plain', body: { kind: 'stored', key, bytes: 20 } });
      }),
    );
    const fresh = Array.from({ length: 30 }, (_, index) => plain(index % 2 === 0 ? hook : other, `message ${index}`));
    const gone = plain(doomed, 'too late');
    const payloads = [...fresh, retried, gone, ...stored];
    const results = await Promise.all(payloads.map((payload) => handle(payload, jobContext(payload.messageId))));
    expect(results).toEqual([
      ...[...fresh, retried].map((payload) => ({ outcome: 'stored', messageId: payload.messageId })),
      { outcome: 'webhook_gone' },
      ...stored.map((payload) => ({ outcome: 'stored', messageId: payload.messageId })),
    ]);
    expect(await countWebhookMessages(pool, hook.webhookId)).toBe(16);
    expect(await countWebhookMessages(pool, other.webhookId)).toBe(21);
    const announced = [
      ...(await streamEvents(redis, environment.redisPrefix, hook.channelId)),
      ...(await streamEvents(redis, environment.redisPrefix, other.channelId)),
    ].map((event) => event.message_id);
    expect(announced.sort()).toEqual([...fresh, retried, ...stored].map((payload) => payload.messageId).sort());
    const { rows } = await pool.query<{ content: string }>('SELECT content FROM messages WHERE id = $1', [fresh[3]!.messageId]);
    expect(rows[0]?.content).toBe('message 3');
  });
});

describe('a batch that fails', () => {
  it('a channel deleted while the batch waits to insert: the batch runs again delivery by delivery, only that one is not posted', async () => {
    const [kept, deleted] = await Promise.all([createHook(pool), createHook(pool)]);
    const handle = deliveryHandler({ pool, redis, storage, events: { streamKey: environment.eventsStreamKey, redisPrefix: environment.redisPrefix, maxLength: 10_000, markerTtlSeconds: 60 } });
    const deleting = await pool.connect();
    try {
      await deleting.query('BEGIN');
      await deleting.query('DELETE FROM channels WHERE id = $1', [deleted.channelId]);
      // One insert for both: it still sees the webhook; its foreign key check waits for the delete's row lock.
      const [first, second] = [plain(kept, 'batched'), plain(deleted, 'batched')];
      const results = Promise.all([handle(first, jobContext()), handle(second, jobContext())]);
      for (let waited = 0; waited < 200; waited += 1) {
        const { rows } = await pool.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (rows[0]!.waiting > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await deleting.query('COMMIT');
      // The delete took the webhook with the channel: alone, that delivery finds no webhook.
      expect(await results).toEqual([{ outcome: 'stored', messageId: first.messageId }, { outcome: 'webhook_gone' }]);
    } finally {
      deleting.release();
    }
    expect(await countWebhookMessages(pool, kept.webhookId)).toBe(1);
    expect(await streamEvents(redis, environment.redisPrefix, kept.channelId)).toHaveLength(1);
  });
});
