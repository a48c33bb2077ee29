import type { JobType, Queue } from 'bullmq';
import { generateUserToken, generateWebhookToken, hashCredential } from '@switchboard/auth';
import { LIMITS, parseStreamEvent, QUEUES, WEBHOOK_DELIVERY_JOB, type StreamEvent } from '@switchboard/contracts';
import {
  ChannelType,
  createWebhookWithinLimits,
  insertChannels,
  insertGuild,
  insertMembers,
  insertUsers,
  insertUserTokens,
  withTransaction,
  type Pool,
} from '@switchboard/db';
import { bullQueue } from '@switchboard/queue';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { testSnowflakeWorkerId } from './ids.ts';
import { waitFor } from './wait.ts';
import type { RedisClient } from '@switchboard/redis';

const ids = createSnowflakeGenerator(testSnowflakeWorkerId());

export interface WebhookFixture {
  guildId: string;
  channelId: string;
  ownerId: string;
  /** The owner's user token (a member of the guild), to read messages back. */
  ownerToken: string;
  webhookId: string;
  token: string;
  name: string;
}

/**
 * A guild, its owner, a text channel and one webhook in it (optionally with a secret, stored
 * unencrypted: every keyring reads it), written directly.
 */
export async function createWebhookFixture(
  pool: Pool,
  options: { secret?: string; name?: string } = {},
): Promise<WebhookFixture> {
  const [ownerId, guildId, channelId, webhookId] = [ids.next(), ids.next(), ids.next(), ids.next()];
  const token = generateWebhookToken();
  const ownerToken = generateUserToken(ownerId);
  const name = options.name ?? 'Test Hook';
  await withTransaction(pool, async (db) => {
    await insertUsers(db, [{ id: ownerId, username: `owner_${ownerId.slice(-8)}` }]);
    await insertUserTokens(db, [{ tokenHash: hashCredential(ownerToken), userId: ownerId, kind: 'user' }]);
    await insertGuild(db, { id: guildId, name: `guild ${guildId}`, ownerId });
    await insertMembers(db, guildId, [{ userId: ownerId }]);
    await insertChannels(db, [{ id: channelId, guildId, type: ChannelType.GuildText, name: 'general', position: 0 }]);
  });
  const limits = { perChannel: LIMITS.webhooks.perChannel, perGuild: LIMITS.webhooks.perGuild };
  // As given, as a row written before secrets were encrypted (or with no key configured).
  const secret = options.secret === undefined ? null : { secret: options.secret, keyId: null };
  await createWebhookWithinLimits(
    pool,
    { id: webhookId, guildId, channelId, creatorId: ownerId, name, avatarHash: null, token, secret },
    limits,
  );
  return { guildId, channelId, ownerId, ownerToken, webhookId, token, name };
}

/** An embed as stored (Discord-shaped, `type: 'rich'`), with the fields tests read by name. */
export interface StoredEmbed {
  type: string;
  title?: string;
  description?: string;
  url?: string;
  color: number;
  [field: string]: unknown;
}

/** A message a webhook posted, as the tests read it straight from PostgreSQL. */
export interface StoredRow {
  id: string;
  content: string;
  embeds: StoredEmbed[];
  webhookName: string;
  webhookAvatarUrl: string | null;
}

/** The messages a webhook posted, oldest first. */
export async function webhookMessages(pool: Pool, webhookId: string): Promise<StoredRow[]> {
  const { rows } = await pool.query<StoredRow>(
    `SELECT id::text, content, embeds, webhook_name AS "webhookName", webhook_avatar_url AS "webhookAvatarUrl"
     FROM messages WHERE webhook_id = $1 ORDER BY id`,
    [webhookId],
  );
  return rows;
}

/** Waits until the webhook has posted `count` messages, and returns them. */
export function messagesOf(pool: Pool, webhookId: string, count = 1, timeoutMs = 10_000): Promise<StoredRow[]> {
  return waitFor(async () => {
    const rows = await webhookMessages(pool, webhookId);
    return rows.length >= count ? rows : undefined;
  }, timeoutMs);
}

/** Every entry of the events stream `streamKey` (a file's eventsStreamKey) about `channelId`, oldest first. */
export async function channelEvents(redis: RedisClient, streamKey: string, channelId: string): Promise<StreamEvent[]> {
  const entries = await redis.xrange(streamKey, '-', '+');
  return entries.map(([, fields]) => parseStreamEvent(fields)).filter((event) => event.channel_id === channelId);
}

/**
 * Delivery jobs of the webhook-deliveries `queue` in these states. The queue also holds the
 * worker's scheduled prune job (always one delayed until its next tick), which is not a delivery.
 */
export async function deliveryJobs(queue: Queue, ...states: JobType[]): Promise<number> {
  const jobs = await queue.getJobs(states);
  return jobs.filter((job) => job?.name === WEBHOOK_DELIVERY_JOB.name).length;
}

/**
 * Waits until every delivery enqueued so far was handled; returns how many failed for good.
 * Deliveries that post nothing leave no row: this is how a test knows they are done.
 */
export async function deliveriesSettled(queue: Queue, timeoutMs = 30_000): Promise<number> {
  await waitFor(
    async () => (await deliveryJobs(queue, 'waiting', 'active', 'delayed', 'prioritized')) === 0,
    timeoutMs,
  );
  return deliveryJobs(queue, 'failed');
}

/** The webhook-deliveries queue under `redisPrefix` (a file's), to look at what a worker did; close it when done. */
export function webhookDeliveriesQueue(connection: RedisClient, redisPrefix: string): Queue {
  return bullQueue(QUEUES.webhookDeliveries, connection, redisPrefix);
}
