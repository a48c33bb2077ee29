import { describe, expect, it } from 'vitest';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { publishedMarkerKey } from '../src/index.ts';
import { jobContext, plainDelivery, useDeliveryStores } from './support.ts';

const environment = useTestEnvironment();
const stores = useDeliveryStores(environment);

/** A delivery handler on a stream of its own, `<prefix>:events`, capped at `maxLength`. */
function handlerOn(prefix: string, maxLength: number) {
  return stores.handler({ streamKey: `${prefix}:events`, redisPrefix: prefix, maxLength, markerTtlSeconds: 60 });
}

describe('the events stream', () => {
  it('appends MESSAGE_CREATE once per message id, under <REDIS_PREFIX>:events', async () => {
    const prefix = `${environment.redisPrefix}.once`;
    const handle = handlerOn(prefix, 1000);
    const hook = await createWebhookFixture(stores.pool);
    const sent = plainDelivery(hook, 'hi');
    expect(await handle(sent, jobContext())).toEqual({ outcome: 'stored', messageId: sent.messageId });
    // A retried delivery appends nothing.
    expect(await handle(sent, jobContext())).toEqual({ outcome: 'stored', messageId: sent.messageId });
    const entries = await stores.redis.xrange(`${prefix}:events`, '-', '+');
    expect(entries).toHaveLength(1);
    const [id, fields] = entries[0]!;
    expect(id).toMatch(/^\d+-\d+$/);
    expect(fields).toEqual([
      'type',
      'MESSAGE_CREATE',
      'guild_id',
      hook.guildId,
      'channel_id',
      hook.channelId,
      'message_id',
      sent.messageId,
      'data',
      expect.any(String),
    ]);
    expect(JSON.parse(fields[9]!)).toMatchObject({
      id: sent.messageId,
      content: 'hi',
      channel_id: hook.channelId,
      webhook_id: hook.webhookId,
    });
    const ttl = await stores.redis.ttl(publishedMarkerKey(prefix, sent.messageId));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('is capped near EVENTS_STREAM_MAX_LENGTH', async () => {
    const prefix = `${environment.redisPrefix}.capped`;
    const handle = handlerOn(prefix, 100);
    const hook = await createWebhookFixture(stores.pool);
    await Promise.all(
      Array.from({ length: 1000 }, (_, index) => handle(plainDelivery(hook, `message ${index}`), jobContext())),
    );
    const length = await stores.redis.xlen(`${prefix}:events`);
    // `MAXLEN ~` trims whole stream nodes (100 entries each by default): at most one node over.
    expect(length).toBeGreaterThanOrEqual(100);
    expect(length).toBeLessThanOrEqual(200);
  });
});
