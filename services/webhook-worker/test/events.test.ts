import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageResponse } from '@switchboard/contracts';
import { closeRedis, createRedis } from '@switchboard/redis';
import { useTestEnvironment } from '@switchboard/testkit';
import { publishMessageCreate, publishedMarkerKey } from '../src/index.ts';
import { ids } from './support.ts';

const environment = useTestEnvironment();
let redis: Redis;

beforeAll(() => {
  redis = createRedis(environment.redisUrl, { role: 'client' });
});

afterAll(async () => {
  if (redis) await closeRedis(redis);
});

function message(id = ids.next()): MessageResponse {
  return {
    id,
    type: 0,
    content: 'hi',
    channel_id: '2',
    guild_id: '1',
    author: { id: '3', username: 'hook', discriminator: '0000', avatar: null, bot: true, flags: 0 },
    attachments: [],
    embeds: [],
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    flags: 0,
    webhook_id: '3',
  };
}

describe('the events stream', () => {
  it('appends MESSAGE_CREATE once per message id, under <REDIS_PREFIX>:events', async () => {
    const prefix = `${environment.redisPrefix}.once`;
    const options = { streamKey: `${prefix}:events`, redisPrefix: prefix, maxLength: 1000, markerTtlSeconds: 60 };
    const sent = message();
    const first = await publishMessageCreate(redis, options, sent);
    expect(first).toMatch(/^\d+-\d+$/);
    expect(await publishMessageCreate(redis, options, sent)).toBeNull();
    const entries = await redis.xrange(`${prefix}:events`, '-', '+');
    expect(entries).toHaveLength(1);
    expect(entries[0]![1]).toEqual(['type', 'MESSAGE_CREATE', 'guild_id', '1', 'channel_id', '2', 'message_id', sent.id, 'data', JSON.stringify(sent)]);
    const ttl = await redis.ttl(publishedMarkerKey(prefix, sent.id));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('is capped near EVENTS_STREAM_MAX_LENGTH', async () => {
    const prefix = `${environment.redisPrefix}.capped`;
    const options = { streamKey: `${prefix}:events`, redisPrefix: prefix, maxLength: 100, markerTtlSeconds: 60 };
    for (let index = 0; index < 1000; index += 1) await publishMessageCreate(redis, options, message());
    const length = await redis.xlen(`${prefix}:events`);
    // `MAXLEN ~` trims whole stream nodes (100 entries each by default): at most one node over.
    expect(length).toBeGreaterThanOrEqual(100);
    expect(length).toBeLessThanOrEqual(200);
  });
});
