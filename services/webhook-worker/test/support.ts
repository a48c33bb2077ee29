import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { parseStreamEvent, type StreamEvent } from '@switchboard/contracts';
import {
  ChannelType,
  createWebhookWithinLimits,
  insertChannels,
  insertGuild,
  insertUsers,
  withTransaction,
  type Pool,
} from '@switchboard/db';
import { createLogger, type Logger } from '@switchboard/logger';
import type { JobContext } from '@switchboard/queue';
import { createSnowflakeGenerator } from '@switchboard/snowflake';

export const ids = createSnowflakeGenerator(1020);
export const silentLogger: Logger = createLogger('webhook-worker-test', 'silent');

export interface Hook {
  webhookId: string;
  channelId: string;
  guildId: string;
  name: string;
}

/** A guild with a text channel and a webhook in it, written directly. */
export async function createHook(pool: Pool): Promise<Hook> {
  const [ownerId, guildId, channelId, webhookId] = [ids.next(), ids.next(), ids.next(), ids.next()];
  await withTransaction(pool, async (db) => {
    await insertUsers(db, [{ id: ownerId, username: `owner_${ownerId.slice(-8)}` }]);
    await insertGuild(db, { id: guildId, name: 'worker test', ownerId });
    await insertChannels(db, [{ id: channelId, guildId, type: ChannelType.GuildText, name: 'general', position: 0 }]);
  });
  const token = randomBytes(48).toString('base64url');
  await createWebhookWithinLimits(
    pool,
    { id: webhookId, guildId, channelId, creatorId: ownerId, name: 'Worker Hook', avatarHash: null, token },
    { perChannel: 15, perGuild: 1000 },
  );
  return { webhookId, channelId, guildId, name: 'Worker Hook' };
}

/** What a handler gets besides its payload, as the queue would pass it. */
export function jobContext(jobId = 'test-job'): JobContext {
  return { jobId, jobName: 'webhook-delivery', attemptsMade: 0, signal: new AbortController().signal, logger: silentLogger };
}

export async function streamEvents(redis: Redis, redisPrefix: string, channelId: string): Promise<StreamEvent[]> {
  const entries = await redis.xrange(`${redisPrefix}:events`, '-', '+');
  return entries.map(([, fields]) => parseStreamEvent(fields)).filter((event) => event.channel_id === channelId);
}
